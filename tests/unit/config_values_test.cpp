// Configuration values as an operator types them: booleans as systemd takes them, integers in
// range, PFC priority lists, counter rates in any unit, and the names of modes.
#include "config/value_parsers.hpp"

#include <gtest/gtest.h>

using namespace nicd;
using namespace nicd::config;

namespace {

// The parser's result, its error's message (what is allowed) copied into `why`.
template <class T> Result<T> withWhy(Result<T> parsed, std::string& why)
{
    if (!parsed)
        why = parsed.error().message;
    return parsed;
}

} // namespace

TEST(ConfigValues, BooleansAsSystemdTakesThem)
{
    std::string why;
    for (const char* t : {"yes", "YES", "true", "True", "1", "on", "On", " yes "})
        EXPECT_EQ(withWhy(parseBool(t), why), true) << t;
    for (const char* f : {"no", "No", "false", "FALSE", "0", "off", "OFF"})
        EXPECT_EQ(withWhy(parseBool(f), why), false) << f;
    for (const char* bad : {"y", "n", "2", "", "enabled", "yes please"}) {
        why.clear();
        EXPECT_FALSE(withWhy(parseBool(bad), why)) << bad;
        EXPECT_EQ(why, "expected a boolean (yes/no, true/false, on/off, 1/0)");
    }
}

TEST(ConfigValues, IntegersMustBeDecimalAndInRange)
{
    std::string why;
    EXPECT_EQ(withWhy(parseUint("100", 100, 3600000), why), 100U);
    EXPECT_EQ(withWhy(parseUint(" 3600000 ", 100, 3600000), why), 3600000U);
    EXPECT_EQ(withWhy(parseUint("18446744073709551615", 0, UINT64_MAX), why), UINT64_MAX);
    for (const char* bad : {"99", "3600001", "abc", "", "-1", "+5", "1e3", "0x10", "10ms", "1 000",
                            "99999999999999999999999"}) {
        why.clear();
        EXPECT_FALSE(withWhy(parseUint(bad, 100, 3600000), why)) << bad;
        EXPECT_EQ(why, "expected an integer from 100 to 3600000") << bad;
    }
}

TEST(ConfigValues, PfcPrioritiesEdgeCases)
{
    std::string why;
    EXPECT_EQ(withWhy(parsePriorities("3"), why), std::vector<uint8_t>{3});
    EXPECT_EQ(withWhy(parsePriorities("0 7"), why), (std::vector<uint8_t>{0, 7}));
    EXPECT_EQ(withWhy(parsePriorities(" 5, 3  4 "), why), (std::vector<uint8_t>{3, 4, 5}));
    EXPECT_EQ(withWhy(parsePriorities("4,3"), why), (std::vector<uint8_t>{3, 4}));
    EXPECT_EQ(withWhy(parsePriorities("3,,4"), why), (std::vector<uint8_t>{3, 4}));
    EXPECT_EQ(withWhy(parsePriorities("0,1,2,3,4,5,6,7"), why),
              (std::vector<uint8_t>{0, 1, 2, 3, 4, 5, 6, 7}));
    // empty and "none" both mean PFC off on every priority
    EXPECT_EQ(withWhy(parsePriorities(""), why), std::vector<uint8_t>{});
    EXPECT_EQ(withWhy(parsePriorities("  "), why), std::vector<uint8_t>{});
    EXPECT_EQ(withWhy(parsePriorities("none"), why), std::vector<uint8_t>{});
    EXPECT_EQ(withWhy(parsePriorities("None"), why), std::vector<uint8_t>{});

    EXPECT_FALSE(withWhy(parsePriorities("8"), why));
    EXPECT_NE(why.find("'8' is not a priority"), std::string::npos) << why;
    EXPECT_FALSE(withWhy(parsePriorities("-1"), why));
    EXPECT_NE(why.find("'-1' is not a priority"), std::string::npos) << why;
    EXPECT_FALSE(withWhy(parsePriorities("3;4"), why));
    EXPECT_FALSE(withWhy(parsePriorities("none 3"), why));
    EXPECT_FALSE(withWhy(parsePriorities("3 3"), why));
    EXPECT_EQ(why, "priority 3 is listed twice");
    EXPECT_FALSE(withWhy(parsePriorities("3,4,03"), why)) << "03 is priority 3 again";
}

// A rate keeps its count and its unit: 120/h is 120 within any hour, not 2 a minute.
TEST(ConfigValues, RatesKeepTheirCountAndWindow)
{
    std::string why;
    auto is = [&](const char* text, double count, double window) {
        auto r = withWhy(parseRate(text), why);
        ASSERT_TRUE(r) << text;
        EXPECT_DOUBLE_EQ(r->count, count) << text;
        EXPECT_DOUBLE_EQ(r->window_sec, window) << text;
    };
    is("10/s", 10, 1);
    is("10/sec", 10, 1);
    is("5/min", 5, 60);
    is("120/h", 120, 3600);
    is("120/hour", 120, 3600);
    is("0.5 / hour", 0.5, 3600);
    is("0/s", 0, 1);
    for (const char* bad :
         {"10", "10/day", "10/", "/s", "-1/s", "x/s", "inf/s", "nan/s", "1e999/s", "10 per s"}) {
        why.clear();
        EXPECT_FALSE(withWhy(parseRate(bad), why)) << bad;
        EXPECT_NE(why.find("expected a rate N/s, N/min or N/h"), std::string::npos) << bad;
    }
}

TEST(ConfigValues, ModeNamesListWhatIsAllowed)
{
    std::string why;
    EXPECT_EQ(withWhy(parseProvisionMode("verify"), why), ProvisionMode::Verify);
    EXPECT_EQ(withWhy(parseProvisionMode("Enforce"), why), ProvisionMode::Enforce);
    EXPECT_EQ(withWhy(parseTrustMode("pcp"), why), TrustMode::Pcp);
    EXPECT_EQ(withWhy(parseBondPolicy("configure"), why), BondPolicy::Configure);
    EXPECT_EQ(withWhy(parseRuleSeverity("non-fatal"), why), RuleSeverity::NonFatal);
    EXPECT_FALSE(withWhy(parseProvisionMode("sometimes"), why));
    EXPECT_EQ(why, "expected one of enforce, verify, off");
    EXPECT_FALSE(withWhy(parseRuleSeverity("warning"), why));
    EXPECT_EQ(why, "expected one of fatal, non-fatal");
}

TEST(ConfigValues, GlobsAreWhitespaceSeparated)
{
    EXPECT_EQ(splitWords("  mlx5_9\tmlx5_1*  eno* "),
              (std::vector<std::string>{"mlx5_9", "mlx5_1*", "eno*"}));
    EXPECT_TRUE(splitWords("").empty());
}
