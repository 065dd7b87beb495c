// The configuration's files as an operator lays them out: a missing main file, drop-ins in
// lexical order overriding only what they set, every error of every file collected, unreadable
// files and a drop-in directory that is a file named.
#include "support/config_files.hpp"

#include <sys/stat.h>

#include <gtest/gtest.h>

using namespace nicd;
using ConfigLoad = nicd::test::ConfigLoad;

TEST_F(ConfigLoad, MissingMainFileStillReadsDropIns)
{
    auto dropin = write("nicd.conf.d/10-poll.conf", "[daemon]\nPollIntervalMs=700\n");
    auto r = load();
    ASSERT_TRUE(r.config) << allErrors(r);
    EXPECT_EQ(r.config->daemon.poll_interval_ms, 700U);
    ASSERT_EQ(r.config->sources.size(), 1U);
    EXPECT_EQ(r.config->sources[0], dropin);
}

TEST_F(ConfigLoad, EveryErrorOfEveryFileIsCollected)
{
    auto main = write("nicd.conf", "[daemon]\nPollIntervalMs=abc\nPmaIntervalMs=1\n[x]\n");
    auto late = write("nicd.conf.d/20-b.conf", "junk\n");
    auto early = write("nicd.conf.d/10-a.conf", "[journal]\n\nEnable=maybe\n");
    auto r = load();
    EXPECT_FALSE(r.config);
    ASSERT_EQ(r.errors.size(), 5U) << allErrors(r);
    EXPECT_EQ(r.errors[0].file + ":" + std::to_string(r.errors[0].line), main + ":2");
    EXPECT_EQ(r.errors[0].key, "PollIntervalMs");
    EXPECT_EQ(r.errors[0].value, "abc");
    EXPECT_EQ(r.errors[1].file + ":" + std::to_string(r.errors[1].line), main + ":3");
    EXPECT_EQ(r.errors[2].file + ":" + std::to_string(r.errors[2].line), main + ":4");
    EXPECT_EQ(r.errors[2].section, "x");
    EXPECT_EQ(r.errors[3].file + ":" + std::to_string(r.errors[3].line), early + ":3");
    EXPECT_EQ(r.errors[3].section, "journal");
    EXPECT_EQ(r.errors[3].key, "Enable");
    EXPECT_EQ(r.errors[4].file + ":" + std::to_string(r.errors[4].line), late + ":1");
}

TEST_F(ConfigLoad, DropInsAreReadInLexicalOrderAndLaterWins)
{
    write("nicd.conf", "[daemon]\nPollIntervalMs=1000\n[provision]\nRoceTos=96\n");
    auto late = write("nicd.conf.d/20-late.conf", "[daemon]\nPollIntervalMs=3000\n");
    auto early =
        write("nicd.conf.d/10-early.conf", "[daemon]\nPollIntervalMs=2000\nPmaIntervalMs=5000\n");
    auto upper = write("nicd.conf.d/1Z.conf", "[daemon]\nPollIntervalMs=1500\n");
    write("nicd.conf.d/30-off.conf.disabled", "[daemon]\nPollIntervalMs=9000\n");
    write("nicd.conf.d/.99-hidden.conf", "[daemon]\nPollIntervalMs=9000\n");
    write("nicd.conf.d/99-README", "not a config file\n");
    auto r = load();
    ASSERT_TRUE(r.config) << allErrors(r);
    EXPECT_EQ(r.config->daemon.poll_interval_ms, 3000U);
    EXPECT_EQ(r.config->daemon.pma_interval_ms, 5000U);
    EXPECT_EQ(r.config->provision.settings.roce_tos, 96) << "the main file's values stay";
    // byte order: "10-early" < "1Z" < "20-late"
    EXPECT_EQ(r.config->sources,
              (std::vector<std::filesystem::path>{mainFile(), early, upper, late}));
}

TEST_F(ConfigLoad, ADropInOverridesOnlyWhatItSets)
{
    write("nicd.conf", "[provision]\nPfcPriorities=3 4\n[device:mlx5_0]\nMode=verify\n"
                       "[plugin:mlx5]\nKnob=1\nOther=2\n");
    write("nicd.conf.d/50.conf", "[provision]\nPfcPriorities=none\n[device:mlx5_0]\nRoceTos=0\n"
                                 "[plugin:mlx5]\nKnob=3\n");
    auto r = load();
    ASSERT_TRUE(r.config) << allErrors(r);
    EXPECT_TRUE(r.config->provision.settings.pfc_priorities.empty());
    auto s = r.config->provisionFor("mlx5_0");
    EXPECT_EQ(s.mode, ProvisionMode::Verify);
    EXPECT_EQ(s.roce_tos, 0);
    EXPECT_EQ(r.config->plugins.at("mlx5"),
              (std::map<std::string, std::string>{{"Knob", "3"}, {"Other", "2"}}));
}

TEST_F(ConfigLoad, UnreadableFilesAreErrorsNamingThem)
{
    // We run as root, so permissions do not stop a read: a directory where a file is expected does.
    std::filesystem::create_directories(dir_ / "nicd.conf");
    std::filesystem::create_directories(dir_ / "nicd.conf.d" / "20-dir.conf");
    std::filesystem::create_symlink(dir_ / "absent", dir_ / "nicd.conf.d" / "30-dangling.conf");
    // A FIFO nothing writes: read, it would hang nicd at start.
    ASSERT_EQ(::mkfifo((dir_ / "nicd.conf.d" / "40-fifo.conf").c_str(), 0600), 0);
    auto good =
        write("nicd.conf.d/10-good.conf", "[daemon]\nPollIntervalMs=200\nPmaIntervalMs=x\n");
    auto r = load();
    EXPECT_FALSE(r.config);
    ASSERT_EQ(r.errors.size(), 5U) << allErrors(r);
    EXPECT_EQ(r.errors[0].format(), mainFile() + ": cannot read: Is a directory");
    EXPECT_EQ(r.errors[1].format().substr(0, good.size() + 3), good + ":3:")
        << "one unreadable file does not stop the others";
    EXPECT_EQ(r.errors[2].format(),
              (dir_ / "nicd.conf.d" / "20-dir.conf").string() + ": cannot read: Is a directory");
    EXPECT_EQ(r.errors[3].format(), (dir_ / "nicd.conf.d" / "30-dangling.conf").string() +
                                        ": cannot open: No such file or directory");
    EXPECT_EQ(r.errors[4].format(), (dir_ / "nicd.conf.d" / "40-fifo.conf").string() +
                                        ": not a regular file (never waited on)");
}

TEST_F(ConfigLoad, ADropInDirectoryThatIsAFileIsAnError)
{
    std::filesystem::remove_all(dir_ / "nicd.conf.d");
    write("nicd.conf.d", "[daemon]\n");
    auto r = load();
    EXPECT_FALSE(r.config);
    ASSERT_EQ(r.errors.size(), 1U) << allErrors(r);
    EXPECT_EQ(r.errors[0].format(), (dir_ / "nicd.conf.d").string() +
                                        ": cannot list the drop-in directory: Not a directory");
}
