// /etc/nicd/slurm-check.conf and slurm-check's state file, as text (tools/nicctl/slurm_settings,
// slurm_state), and what it reads from `scontrol show node` (slurm_scontrol).
#include "slurm_scontrol.hpp"
#include "slurm_settings.hpp"
#include "slurm_state.hpp"
#include "support/temp_dir.hpp"

#include <cctype>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

using namespace nicctl::slurm;

TEST(SlurmSettings, DefaultsAndEveryKey)
{
    CheckSettings s;
    std::vector<std::string> errors;
    parseSettings("", "f", s, errors);
    EXPECT_FALSE(s.decision.drain_on_degraded);
    EXPECT_FALSE(s.decision.drain_when_unreachable);
    EXPECT_EQ(s.decision.resume_after_sec, 300u);
    EXPECT_EQ(s.state_file, "/var/lib/nicd/slurm-check.state");

    parseSettings("# site\nDrainOn = degraded\n\nUnreachable=drain\nResumeAfterSec=never\n"
                  "StateFile=/run/nicd/s\n",
                  "f", s, errors);
    EXPECT_TRUE(errors.empty());
    EXPECT_TRUE(s.decision.drain_on_degraded);
    EXPECT_TRUE(s.decision.drain_when_unreachable);
    EXPECT_FALSE(s.decision.resume_after_sec);
    EXPECT_EQ(s.state_file, "/run/nicd/s");
}

TEST(SlurmSettings, ErrorsNameFileLineAndKey)
{
    CheckSettings s;
    std::vector<std::string> errors;
    parseSettings("DrainOn=sometimes\nResumeAfterSec=5m\nDrain=fatal\nnonsense\nStateFile=rel\n",
                  "/etc/nicd/slurm-check.conf", s, errors);
    ASSERT_EQ(errors.size(), 5u);
    EXPECT_EQ(errors[0], "/etc/nicd/slurm-check.conf:1: DrainOn=: expected fatal or degraded");
    EXPECT_EQ(errors[1], "/etc/nicd/slurm-check.conf:2: ResumeAfterSec=: expected seconds "
                         "(0 to 31536000) or never");
    EXPECT_NE(errors[2].find(":3: Drain=: unknown key"), std::string::npos) << errors[2];
    EXPECT_NE(errors[3].find("/etc/nicd/slurm-check.conf:4: expected Key=Value"), std::string::npos)
        << errors[3];
    EXPECT_NE(errors[4].find(":5: StateFile=: expected an absolute path"), std::string::npos);
    EXPECT_FALSE(s.decision.drain_on_degraded); // a bad value changes nothing
}

// nicd.conf's reader: a section header is a mistake here, and what is under it is not taken.
TEST(SlurmSettings, ASectionIsAnErrorAndWhatIsUnderItIsNotTaken)
{
    CheckSettings s;
    std::vector<std::string> errors;
    parseSettings("[slurm]\nDrainOn=degraded\n", "f", s, errors);
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_EQ(errors[0], "f:1: expected Key=Value (this file has no sections)");
    EXPECT_FALSE(s.decision.drain_on_degraded);
}

TEST(SlurmState, RoundTripAndCorruptTextIsUnknown)
{
    EXPECT_EQ(parseHealthySince(healthySinceText(1'800'000'000)), 1'800'000'000u);
    EXPECT_EQ(healthySinceText(std::nullopt), "");
    EXPECT_FALSE(parseHealthySince(""));
    EXPECT_FALSE(parseHealthySince("healthy_since=\n"));
    EXPECT_FALSE(parseHealthySince("healthy_since=12x\n"));
    EXPECT_FALSE(parseHealthySince("garbage"));
}

TEST(SlurmState, SavedAtomicallyIntoAMissingDirectory)
{
    auto dir = nicd::test::makeTempDir("slurm-state");
    auto file = (dir / "sub" / "slurm-check.state").string();
    EXPECT_EQ(loadHealthySince(file), std::nullopt);
    EXPECT_TRUE(saveHealthySince(file, 1234).has_value());
    EXPECT_EQ(loadHealthySince(file), 1234u);
    EXPECT_TRUE(saveHealthySince(file, std::nullopt).has_value());
    EXPECT_EQ(loadHealthySince(file), std::nullopt);
    std::filesystem::remove_all(dir);
}

TEST(SlurmScontrol, DrainReasonWithoutWhoAndWhen)
{
    // As Slurm 22.05 prints a drained node (abridged).
    const std::string drained = "NodeName=vm Arch=x86_64 CoresPerSocket=1\n"
                                "   State=IDLE+DRAIN ThreadsPerCore=1 TmpDisk=0 Weight=1\n"
                                "   Partitions=debug\n"
                                "   Reason=nicd: mlx5_3/1 port_down check_cable "
                                "[root@2026-11-27T06:40:00]\n";
    EXPECT_EQ(drainReasonOf(drained, "vm").value_or("?"), "nicd: mlx5_3/1 port_down check_cable");
    EXPECT_EQ(drainReasonOf("NodeName=vm Arch=x86_64\n   State=IDLE\n", "vm").value_or("?"), "");
    EXPECT_FALSE(drainReasonOf("Node vm not found\n", "vm"));
}

// slurm-check acts on its own node only: scontrol answering with several nodes (a NodeSet name,
// a host list) or another node than the one asked is refused before anything is drained.
TEST(SlurmScontrol, AnAnswerOfAnyOtherThanExactlyThisNodeIsRefused)
{
    const std::string two = "NodeName=gpu01 Arch=x86_64\n   State=IDLE\n   Reason=(null)\n\n"
                            "NodeName=gpu02 Arch=x86_64\n   State=IDLE\n   Reason=(null)\n";
    auto r = drainReasonOf(two, "gpus");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().message, "names 2 nodes (gpu01, gpu02), not this one node: slurm-check "
                                 "drains only the node it runs on");
    auto other = drainReasonOf("NodeName=gpu01 Arch=x86_64\n   State=IDLE\n", "gpu1");
    ASSERT_FALSE(other);
    EXPECT_EQ(other.error().message, "is node gpu01, not gpu1");
    EXPECT_EQ(
        drainReasonOf("NodeName=gpu01 Arch=x86_64\n   Reason=(null)\n", "gpu01").value_or("?"), "");
}

TEST(SlurmScontrol, NodeNamesThatScontrolCouldMisread)
{
    EXPECT_TRUE(validNodeName("gpu-node07.rack3"));
    EXPECT_FALSE(validNodeName(""));
    EXPECT_FALSE(validNodeName("vm state=resume"));
    EXPECT_FALSE(validNodeName("-h"));
    EXPECT_FALSE(validNodeName("a,b"));
    for (const char* all : {"ALL", "all", "All"})
        EXPECT_FALSE(validNodeName(all)) << all << ": Slurm's every node";
    EXPECT_TRUE(validNodeName("allgpu"));
}

// The shipped file (etc/slurm/slurm-check.conf) lists every key with its default, commented out:
// as shipped it changes nothing, and each "#Key=" line uncommented is valid and the default.
TEST(SlurmSettings, ShippedFileListsEveryKeyWithItsDefault)
{
    std::ifstream in(NICD_SOURCE_DIR "/etc/slurm/slurm-check.conf");
    ASSERT_TRUE(in);
    std::ostringstream text;
    text << in.rdbuf();
    std::string uncommented;
    std::istringstream lines(text.str());
    int keys = 0;
    for (std::string line; std::getline(lines, line);)
        if (line.size() > 2 && line[0] == '#' &&
            std::isupper(static_cast<unsigned char>(line[1]))) {
            uncommented += line.substr(1) + "\n";
            ++keys;
        }
    EXPECT_EQ(keys, 4);
    CheckSettings shipped, defaults;
    std::vector<std::string> errors;
    parseSettings(text.str(), "shipped", shipped, errors);
    parseSettings(uncommented, "uncommented", defaults, errors);
    EXPECT_TRUE(errors.empty()) << errors.front();
    for (const auto* s : {&shipped, &defaults}) {
        EXPECT_FALSE(s->decision.drain_on_degraded);
        EXPECT_FALSE(s->decision.drain_when_unreachable);
        EXPECT_EQ(s->decision.resume_after_sec, 300u);
        EXPECT_EQ(s->state_file, kDefaultStateFile);
    }
}

TEST(SlurmScontrol, CommandsRunWithoutAShellAndSayWhyTheyFailed)
{
    auto r = runCommand({"sh", "-c", "echo out; echo err >&2; exit 3"});
    EXPECT_EQ(r.status, 3);
    EXPECT_EQ(r.output, "out\nerr\n");
    auto literal = runCommand({"echo", "nodename=vm; reboot"}); // one argument, as given
    EXPECT_EQ(literal.output, "nodename=vm; reboot\n");
    auto missing = runCommand({"/nonexistent/scontrol", "show", "node", "vm"});
    EXPECT_EQ(missing.status, 127);
    EXPECT_EQ(missing.output, "cannot run /nonexistent/scontrol: not found\n");
}
