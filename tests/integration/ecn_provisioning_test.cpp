// ECN for RoCE provisioned by the real nicd (`nicd --once`) on the simulated node, whose ecn/ trees
// start with every priority off: enabled on the lossless priority of exactly the up RoCE PFs (no
// other priority, no down port, InfiniBand port, VF, LAG device or member), drift repaired in
// Mode=enforce and only reported in Mode=verify, nothing written by a dry run, members written
// with Bonds=configure, the compliance series per setting; a plugin from before the knob writer
// (ABI 1.3) that writes the knob itself is told why it cannot.
#include "sim.hpp"
#include "support/daemon_fixture.hpp"
#include "support/process.hpp"

#include <unistd.h>

#include <fstream>
#include <map>

#include <gtest/gtest.h>

using namespace nicd;
namespace fs = std::filesystem;

namespace {

// Every netdev with an ecn/ tree and its enable bits, "np:00010000 rp:00010000".
using EcnState = std::map<std::string, std::string>;

class EcnProvisioningTest : public test::DaemonTest {
protected:
    std::string tempTag() const override { return "ecn"; }
    std::string baseConfig() const override { return "[provision]\n"; }

    std::string once(const std::string& provision, std::vector<std::string> extra = {})
    {
        writeConfig(provision);
        extra.insert(extra.begin(), "--once");
        std::string out;
        test::run(nicd(extra), out);
        return out;
    }
    std::string textfile() const { return textfileText(); }
    EcnState ecn() const
    {
        EcnState out;
        for (const auto& e : fs::directory_iterator(root_ / "sys/class/net")) {
            auto dir = e.path() / "ecn";
            if (!fs::exists(dir))
                continue;
            std::string s;
            for (const char* point : {"roce_np", "roce_rp"}) {
                s += s.empty() ? "np:" : " rp:";
                for (int p = 0; p < 8; ++p)
                    s += test::readFile(dir / point / "enable" / std::to_string(p)).substr(0, 1);
            }
            out[e.path().filename().string()] = s;
        }
        return out;
    }
    static bool has(const std::string& text, const std::string& line)
    {
        return text.find(line + "\n") != std::string::npos;
    }
};

const std::string kOff = "np:00000000 rp:00000000";
const std::string kOn3 = "np:00010000 rp:00010000";

} // namespace

TEST_F(EcnProvisioningTest, TheLosslessPriorityOfExactlyTheUpRocePfs)
{
    ASSERT_EQ(ecn(), (EcnState{{"ens1f0np0", kOff},
                               {"ens2f0np0", kOff},
                               {"ens3f0np0", kOff},
                               {"ens4f0np0", kOff},
                               {"ens5f0np0", kOff},
                               {"ens5f1np1", kOff},
                               {"ens6f0np0", kOff}}))
        << "the simulator's fresh driver: PFs and LAG members only, all off";
    auto out = once("[textfile]\nCounters=all\n"); // nicd_qos_changes_total: what it wrote
    // mlx5_0..3: up RoCE PFs. ens5f*: the LAG's members (Bonds=skip). ens6f0np0: mlx5_6, down.
    // No tree at all: the VF (mlx5_5), IPoIB (mlx5_4), the bond and the management NIC.
    EXPECT_EQ(ecn(), (EcnState{{"ens1f0np0", kOn3},
                               {"ens2f0np0", kOn3},
                               {"ens3f0np0", kOn3},
                               {"ens4f0np0", kOn3},
                               {"ens5f0np0", kOff},
                               {"ens5f1np1", kOff},
                               {"ens6f0np0", kOff}}))
        << out;
    auto text = textfile();
    for (const char* setting : {"ecn_np", "ecn_rp"}) {
        EXPECT_TRUE(has(text, std::string("nicd_qos_compliant{device=\"mlx5_0\",port=\"1\","
                                          "setting=\"") +
                                  setting + "\"} 1"))
            << setting;
        EXPECT_TRUE(has(text, std::string("nicd_qos_changes_total{device=\"mlx5_3\",port=\"1\","
                                          "setting=\"") +
                                  setting + "\"} 1"))
            << setting;
    }
    EXPECT_EQ(text.find("nicd_qos_compliant{device=\"mlx5_4\""), std::string::npos);

    // A second run (a new process: its counts start at 0) finds them compliant and writes nothing.
    once("");
    EXPECT_EQ(textfile().find("nicd_qos_changes_total{device=\"mlx5_3\",port=\"1\",setting=\"ecn"),
              std::string::npos);
}

TEST_F(EcnProvisioningTest, SeveralLosslessPrioritiesAndCnpMarking)
{
    once("PfcPriorities=3,4\nCnpDscp=46\n");
    EXPECT_EQ(ecn().at("ens1f0np0"), "np:00011000 rp:00011000");
    EXPECT_EQ(test::readFile(root_ / "sys/class/net/ens1f0np0/ecn/roce_np/cnp_dscp"), "46\n");
    EXPECT_EQ(test::readFile(root_ / "sys/class/net/ens1f0np0/ecn/roce_np/cnp_802p_prio"), "6\n")
        << "CnpPriority= unset: left as it is";
    EXPECT_TRUE(
        has(textfile(), "nicd_qos_compliant{device=\"mlx5_1\",port=\"1\",setting=\"cnp_dscp\"} 1"));
}

TEST_F(EcnProvisioningTest, DriftIsRepairedInEnforceAndReportedInVerify)
{
    once("");
    std::string out;
    ASSERT_EQ(test::run({NICD_SIM_BIN, "inject", root_.string(), "ecn-drift", "mlx5_1"}, out), 0)
        << out;
    EXPECT_EQ(ecn().at("ens2f0np0"), kOff);

    once("Mode=verify\n");
    EXPECT_EQ(ecn().at("ens2f0np0"), kOff) << "verify changes nothing";
    auto text = textfile();
    EXPECT_TRUE(has(text, "nicd_qos_compliant{device=\"mlx5_1\",port=\"1\",setting=\"ecn_np\"} 0"));
    EXPECT_TRUE(has(text, "nicd_qos_compliant{device=\"mlx5_0\",port=\"1\",setting=\"ecn_np\"} 1"));

    once("");
    EXPECT_EQ(ecn().at("ens2f0np0"), kOn3);
    EXPECT_TRUE(
        has(textfile(), "nicd_qos_compliant{device=\"mlx5_1\",port=\"1\",setting=\"ecn_rp\"} 1"));
}

TEST_F(EcnProvisioningTest, DryRunAndEcnNoWriteNothing)
{
    auto out = once("", {"--dry-run"});
    EXPECT_EQ(ecn().at("ens1f0np0"), kOff) << out;
    EXPECT_NE(out.find("ecn_np"), std::string::npos) << out;
    once("Ecn=no\n");
    EXPECT_EQ(ecn().at("ens1f0np0"), kOff);
    EXPECT_EQ(textfile().find("setting=\"ecn_np\""), std::string::npos);
}

TEST_F(EcnProvisioningTest, BondsConfigureWritesTheLagMembers)
{
    once("Bonds=configure\n");
    EXPECT_EQ(ecn().at("ens5f0np0"), kOn3);
    EXPECT_EQ(ecn().at("ens5f1np1"), kOn3);
}

// A plugin of ABI 1.3 writes its knobs itself, which nicd's process may not (Landlock): the
// write fails, the QoS report says why and what would work, and the knob is as it was.
TEST_F(EcnProvisioningTest, APluginFromBeforeTheKnobWriterIsToldWhyItsWritesFail)
{
    writeConfig("Mode=enforce\n");
    std::string out;
    test::run(nicd({"--once"}, NICD_TEST_PLUGIN_DIR "/old_abi_qos"), out);
    if (out.find("writes limited by Landlock") == std::string::npos)
        GTEST_SKIP() << "no Landlock here: an old plugin's writes still land\n" << out;
    const auto knob = root_ / "sys/class/net/ens1f0np0/ecn/roce_np/enable/3";
    EXPECT_NE(out.find(knob.string() +
                       ": Permission denied; plugin oldqos (ABI 1.3) writes host knobs itself, "
                       "which nicd's process may not: a plugin of ABI 1.4 changes them through "
                       "nicd's knob writer"),
              std::string::npos)
        << out;
    EXPECT_EQ(test::readFile(knob), "0\n");
}
