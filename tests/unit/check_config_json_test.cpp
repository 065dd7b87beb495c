// nicd --check-config --json: one object a script can read, every error with its place.
#include "app/check_config.hpp"

#include <gtest/gtest.h>

using namespace nicd;

TEST(CheckConfigJson, ValidOrEveryErrorWithItsPlace)
{
    ConfigResult bad;
    bad.errors.push_back({"/etc/nicd/nicd.conf", 12, "daemon", "PollIntervalMs",
                          "expected an integer from 100 to 3600000", "fast\x1b[31m"});
    bad.warnings.push_back(
        {"/etc/nicd/nicd.conf", 3, "daemon", "PluginDirectory", "not used", "/x"});
    auto j = app::checkConfigJson(bad);
    EXPECT_EQ(j["valid"], false);
    ASSERT_EQ(j["errors"].size(), 1U);
    EXPECT_EQ(j["errors"][0]["line"], 12);
    EXPECT_EQ(j["errors"][0]["key"], "PollIntervalMs");
    EXPECT_EQ(j["errors"][0]["value"], "fast\\x1b[31m") << "escaped as in the text";
    EXPECT_EQ(j["warnings"][0]["message"], "not used");
    EXPECT_NO_THROW((void)j.dump());

    ConfigResult good;
    good.config = defaultConfig();
    good.config->sources.push_back("/etc/nicd/nicd.conf");
    auto v = app::checkConfigJson(good);
    EXPECT_EQ(v["valid"], true);
    EXPECT_EQ(v["files"], nlohmann::json::array({"/etc/nicd/nicd.conf"}));
    EXPECT_TRUE(v["errors"].empty());
}
