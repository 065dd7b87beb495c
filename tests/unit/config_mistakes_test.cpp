// Mistakes an operator makes in nicd.conf, each refused with the file and line, where nicd used to
// call the configuration valid: a --config file that is not there, a glob fnmatch would take
// literally, a counter name with a typo, control bytes echoed raw, a flood of errors, a file of
// megabytes. The [plugin:NAME] sections against what plugins declare: config_plugin_test.cpp.
#include "config/value_parsers.hpp"
#include "support/config_files.hpp"

#include <gtest/gtest.h>

using namespace nicd;
using ConfigLoad = nicd::test::ConfigLoad;

TEST_F(ConfigLoad, AConfigFileNamedOnTheCommandLineMustExist)
{
    std::filesystem::remove_all(dir_ / "nicd.conf.d");
    auto defaults = loadConfig(dir_ / "nicd.conf", dir_ / "nicd.conf.d");
    EXPECT_TRUE(defaults.config) << "/etc/nicd/nicd.conf absent: the defaults";
    auto named = loadConfig(dir_ / "nicd.conf", dir_ / "nicd.conf.d", HostPaths(), true);
    EXPECT_FALSE(named.config) << "--config FILE absent: an error, not the defaults";
    ASSERT_EQ(named.errors.size(), 1U) << allErrors(named);
    EXPECT_EQ(named.errors[0].format(),
              mainFile() +
                  ": no such file (named by --config; nicd does not fall back to the defaults)");
}

TEST_F(ConfigLoad, GlobsThatMatchNothingAsWrittenAreRefused)
{
    EXPECT_EQ(onlyError("[daemon]\nIgnoreDevices=mlx5_[0-1\n"),
              mainFile() + ":2: [daemon] IgnoreDevices=mlx5_[0-1: 'mlx5_[0-1' is not a glob: its "
                           "'[' has no ']' (fnmatch would take it literally and match nothing)");
    EXPECT_NE(onlyError("[provision]\nExcludeNetdevs=ens1f0 eth]\n").find("a ']' without its '['"),
              std::string::npos);
    EXPECT_NE(onlyError("[provision]\nIncludeNetdevs=bond[9-0]\n").find("the range 9-0 is empty"),
              std::string::npos);
    EXPECT_NE(onlyError("[textfile]\nCounters=default rx_prio[3_bytes\n").find("has no ']'"),
              std::string::npos);
    Config c = loaded("[daemon]\nIgnoreDevices=mlx5_[01] mlx5_[!2]* mlx5_[]x]\n[provision]\n"
                      "ExcludeNetdevs=ens[1-3]f* bond?\n");
    EXPECT_EQ(c.daemon.ignore_devices,
              (std::vector<std::string>{"mlx5_[01]", "mlx5_[!2]*", "mlx5_[]x]"}));
    EXPECT_EQ(c.provision.exclude_netdevs, (std::vector<std::string>{"ens[1-3]f*", "bond?"}));
}

TEST(ConfigValues, CheckGlobReadsClassesAsFnmatchDoes)
{
    EXPECT_TRUE(config::checkGlob("mlx5_*"));
    EXPECT_TRUE(config::checkGlob("[!a-c]x"));
    EXPECT_TRUE(config::checkGlob("[]]")) << "a ']' first in a class is a member";
    EXPECT_TRUE(config::checkGlob("[!]]"));
    EXPECT_FALSE(config::checkGlob("["));
    EXPECT_FALSE(config::checkGlob("[]"));
    EXPECT_FALSE(config::checkGlob("a]"));
    EXPECT_FALSE(config::checkGlob("[z-a]"));
}

TEST_F(ConfigLoad, ACounterNameOneTypoFromAPmaCounterIsRefused)
{
    EXPECT_EQ(onlyError("[counter:symbol_eror]\nRate=1/s\n"),
              mainFile() + ":1: [counter:symbol_eror] unknown counter; did you mean "
                           "[counter:symbol_error]?");
    EXPECT_EQ(onlyError("[counter:Link_Downed/mlx5_0]\nDelta=0\n"),
              mainFile() + ":1: [counter:Link_Downed/mlx5_0] unknown counter; did you mean "
                           "[counter:link_downed/mlx5_0]? (counter names are case-sensitive)");
    // A plugin's counter (a driver's name) is not one nicd lists: it passes.
    Config c = loaded("[counter:out_of_buffer]\nRate=100/s\n[counter:symbol_error]\nRate=5/h\n");
    EXPECT_TRUE(c.counter_rules.contains("out_of_buffer"));
    EXPECT_TRUE(c.counter_rules.contains("symbol_error"));
}

TEST_F(ConfigLoad, ControlBytesAndBrokenUtf8AreShownEscaped)
{
    auto error = onlyError("[daemon]\nPollIntervalMs=\x1b[31mred\xff\n");
    EXPECT_EQ(error, mainFile() + ":2: [daemon] PollIntervalMs=\\x1b[31mred\\xff: expected an "
                                  "integer from 100 to 3600000");
    EXPECT_EQ(onlyError("[dae\x07mon]\n").find('\x07'), std::string::npos);
}

TEST_F(ConfigLoad, TwentyErrorsAreShownThenHowManyMore)
{
    std::string text = "[daemon]\n";
    for (int i = 0; i < 35; ++i)
        text += "Nonsense" + std::to_string(i) + "=1\n";
    write("nicd.conf", text);
    auto r = load();
    ASSERT_EQ(r.errors.size(), 35U);
    auto lines = formatErrors(r.errors);
    ASSERT_EQ(lines.size(), 21U);
    EXPECT_EQ(lines[0], r.errors[0].format());
    EXPECT_EQ(lines[19], r.errors[19].format());
    EXPECT_EQ(lines[20], "... and 15 more errors (fix these first)");
    r.errors.resize(21);
    EXPECT_EQ(formatErrors(r.errors).back(), "... and 1 more error (fix these first)");
    r.errors.resize(20);
    EXPECT_EQ(formatErrors(r.errors).size(), 20U);
}

TEST_F(ConfigLoad, AFileOverOneMebibyteIsNotRead)
{
    std::string text = "[daemon]\n";
    while (text.size() <= kMaxConfigFileBytes)
        text += "# padding padding padding padding padding padding padding padding padding\n";
    EXPECT_EQ(onlyError(text), mainFile() + ": larger than 1 MiB: not read (a configuration file "
                                            "is a few KiB; is this the file you meant?)");
    text.resize(kMaxConfigFileBytes - 100);
    text += "\n";
    loaded(text); // just under: read
}

TEST_F(ConfigLoad, EachKeyInEffectRemembersItsFileAndLine)
{
    write("nicd.conf", "[daemon]\n\nPollIntervalMs=1000\n[plugin:mlx5]\nEnabled=yes\n");
    auto dropin = write("nicd.conf.d/10-a.conf", "[daemon]\nPollIntervalMs=2000\n");
    auto r = load();
    ASSERT_TRUE(r.config) << allErrors(r);
    const auto& o = r.config->origins;
    ASSERT_TRUE(o.contains({"daemon", "PollIntervalMs"}));
    EXPECT_EQ(o.at({"daemon", "PollIntervalMs"}).file, dropin) << "the value in effect: the last";
    EXPECT_EQ(o.at({"daemon", "PollIntervalMs"}).line, 2);
    EXPECT_EQ(o.at({"plugin:mlx5", "Enabled"}).line, 5);
    EXPECT_EQ(o.at({"plugin:mlx5", ""}).line, 4) << "where the section begins";
    EXPECT_FALSE(o.contains({"daemon", "PmaIntervalMs"})) << "a default has no origin";
}
