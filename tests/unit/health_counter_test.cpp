// Counter rules over simulated time: every default rule fires above its threshold and recovers
// below it; 32-bit wraps, saturated counters and resets never raise a false alarm; an admin clear
// of a breached counter recovers it; configuration overrides; the tracker survives a restart.
#include "health/counter_rules.hpp"
#include "health/counter_tracker.hpp"
#include "health/health_engine.hpp"
#include "support/health_fixture.hpp"

#include <gtest/gtest.h>

using namespace nicd;
using namespace nicd::health;

namespace {

struct Reading {
    std::string source;
    std::string netdev;
    std::string name;
    uint64_t value;
};

class CounterRulesTest : public ::testing::Test {
protected:
    Snapshot snap(const std::vector<Reading>& readings, uint64_t pma_usec = 0)
    {
        Snapshot s;
        s.inventory.devices.push_back(test::device("mlx5_0", 4));
        DeviceSamples ds;
        ds.ibdev = "mlx5_0";
        ds.pma_monotonic_usec = pma_usec;
        for (const auto& r : readings)
            test::addMlx5Samples(ds,
                                 {{r.source, 1, r.netdev, r.name, r.value, SampleKind::Counter}});
        s.samples.push_back(ds);
        return s;
    }
    Snapshot at(double t, const std::vector<Reading>& readings, uint64_t pma_usec = 0)
    {
        auto s = snap(readings, pma_usec);
        events_ = engine_.evaluate(s, t, 1700000000 + t);
        return s;
    }
    static const Condition* find(const Snapshot& s, const std::string& code)
    {
        for (const auto& c : s.health.conditions)
            if (c.code == code)
                return &c;
        return nullptr;
    }

    HealthEngine engine_{Config{}};
    std::vector<Event> events_;
};

struct DefaultRuleCase {
    std::string source;
    std::string netdev;
    std::string name;
    ConditionSeverity severity;
};

} // namespace

// Each default rule: exactly its allowance within one window is fine, one more fires, and a
// window without growth recovers. The thresholds come from the rule table itself, so a changed
// default is still checked for the behaviour, and the list checks that every rule named in the
// design exists with its severity.
TEST_F(CounterRulesTest, EveryDefaultRuleFiresAboveItsThresholdAndRecovers)
{
    using S = ConditionSeverity;
    const std::vector<DefaultRuleCase> cases{
        {"counters", "", "link_downed", S::Fatal},
        {"counters", "", "excessive_buffer_overrun_errors", S::Fatal},
        {"counters", "", "local_link_integrity_errors", S::Fatal},
        {"hw_counters", "", "rnr_nak_retry_err", S::Fatal},
        {"counters", "", "symbol_error", S::Degraded},
        {"counters", "", "link_error_recovery", S::Degraded},
        {"counters", "", "port_rcv_errors", S::Degraded},
        {"hw_counters", "", "roce_slow_restart", S::Degraded},
        {"hw_counters", "", "local_ack_timeout_err", S::Degraded},
        {"hw_counters", "", "out_of_buffer", S::Degraded},
        {"ethtool", "ens1f0np0", "rx_prio3_pause", S::Degraded},
        {"ethtool", "ens1f0np0", "tx_prio5_pause", S::Degraded},
        {"ethtool", "ens1f0np0", "rx_prio3_pause_duration", S::Degraded},
        {"ethtool", "ens1f0np0", "tx_prio3_pause_duration", S::Degraded},
        {"ethtool", "ens1f0np0", "tx_pause_storm_error_events", S::Degraded},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(c.name);
        auto rule = ruleFor(c.name, test::mlx5Meaning(c.name).meaning, "mlx5_0", Config{});
        ASSERT_TRUE(rule);
        EXPECT_EQ(rule->severity, c.severity);
        engine_ = HealthEngine(Config{});
        const double w = rule->window_sec;
        const auto allowed = static_cast<uint64_t>(rule->threshold);
        const std::string code = "counter." + c.name + (c.netdev.empty() ? "" : "." + c.netdev);
        auto read = [&](double t, uint64_t v) {
            return at(t, {{c.source, c.netdev, c.name, v}},
                      c.source == "counters" ? static_cast<uint64_t>(t * 1e6) + 1 : 0);
        };
        read(0, 0);
        auto s = read(w, allowed);
        EXPECT_FALSE(find(s, code)) << "exactly the allowance";
        s = read(2 * w, 2 * allowed + 1);
        const auto* cond = find(s, code);
        ASSERT_TRUE(cond) << "one more than the allowance";
        EXPECT_EQ(cond->severity, c.severity);
        EXPECT_EQ(cond->source, ConditionSource::Counter);
        EXPECT_EQ(s.health.ports.at({"mlx5_0", 1}), healthOf(c.severity));
        s = read(3 * w + w / 10, 2 * allowed + 1);
        EXPECT_FALSE(find(s, code)) << "a window without growth";
        ASSERT_FALSE(events_.empty());
        EXPECT_EQ(events_.back().kind, EventKind::Recovered);
    }
}

TEST_F(CounterRulesTest, PerHourRulesDoNotExtrapolateTheFirstSeconds)
{
    at(0, {{"counters", "", "symbol_error", 0}}, 1);
    auto s = at(1, {{"counters", "", "symbol_error", 3}}, 1000001);
    EXPECT_FALSE(find(s, "counter.symbol_error")) << "3 in a second is not 10,800 per hour";
    s = at(600, {{"counters", "", "symbol_error", 120}}, 600000001);
    EXPECT_FALSE(find(s, "counter.symbol_error")) << "120 within the hour is the allowance";
    s = at(605, {{"counters", "", "symbol_error", 121}}, 605000001);
    ASSERT_TRUE(find(s, "counter.symbol_error")) << "121 within an hour, however fast";
    EXPECT_NE(find(s, "counter.symbol_error")->message.find("more than 120 per hour"),
              std::string::npos);
}

TEST_F(CounterRulesTest, PmaCountersAreMeasuredAtTheirOwnReadTime)
{
    // PMA counters are carried between PMA reads: the same read time is no new evidence.
    at(0, {{"counters", "", "port_rcv_errors", 0}}, 1000000);
    auto s = at(5, {{"counters", "", "port_rcv_errors", 0}}, 1000000);
    EXPECT_TRUE(events_.empty());
    s = at(10, {{"counters", "", "port_rcv_errors", 150}}, 11000000); // 150 in 10 s: 15/s
    EXPECT_TRUE(find(s, "counter.port_rcv_errors"));
    s = at(15, {{"counters", "", "port_rcv_errors", 150}}, 11000000);
    EXPECT_TRUE(find(s, "counter.port_rcv_errors")) << "no new read, no recovery";
    s = at(20, {{"counters", "", "port_rcv_errors", 150}}, 21000000);
    EXPECT_FALSE(find(s, "counter.port_rcv_errors"));
}

TEST_F(CounterRulesTest, A32BitWrapCountsTheRealGrowth)
{
    const uint64_t top = 0xffffffffULL;
    at(0, {{"hw_counters", "", "out_of_buffer", top - 10}});
    auto s = at(5, {{"hw_counters", "", "out_of_buffer", 20}}); // wrapped by 31: 6/s
    EXPECT_TRUE(s.health.conditions.empty());
    s = at(10, {{"hw_counters", "", "out_of_buffer", 40}});
    EXPECT_TRUE(s.health.conditions.empty()) << "after the wrap, growth is measured from 20";
}

TEST_F(CounterRulesTest, AWrapByMoreThanTheThresholdFires)
{
    const uint64_t top = 0xffffffffULL;
    at(0, {{"hw_counters", "", "out_of_buffer", top - 99}});
    auto s = at(5, {{"hw_counters", "", "out_of_buffer", 1000}}); // 1100 in 5 s: 220/s
    ASSERT_TRUE(find(s, "counter.out_of_buffer"));
    EXPECT_NE(find(s, "counter.out_of_buffer")->message.find("grew by 1100"), std::string::npos);
}

TEST_F(CounterRulesTest, ResetsNeverAlarmWhateverTheWidth)
{
    // A driver reload: every counter back near 0. A saturating PMA counter and a 64-bit ethtool
    // counter whose last value was in the top half of the 32-bit range are resets, not wraps.
    at(0,
       {{"counters", "", "port_rcv_errors", 3000000000ULL},
        {"ethtool", "ens1f0np0", "rx_prio3_pause", 3000000000ULL},
        {"hw_counters", "", "local_ack_timeout_err", 5000}},
       1);
    auto s = at(5,
                {{"counters", "", "port_rcv_errors", 2},
                 {"ethtool", "ens1f0np0", "rx_prio3_pause", 7},
                 {"hw_counters", "", "local_ack_timeout_err", 1}},
                5000001);
    EXPECT_TRUE(s.health.conditions.empty());
    EXPECT_TRUE(events_.empty());
    s = at(10,
           {{"counters", "", "port_rcv_errors", 4},
            {"ethtool", "ens1f0np0", "rx_prio3_pause", 9},
            {"hw_counters", "", "local_ack_timeout_err", 2}},
           10000001);
    EXPECT_TRUE(s.health.conditions.empty()) << "the new baseline measures small growth";
}

TEST_F(CounterRulesTest, ASaturatedCounterNeverAlarmsButSaysItIsBlind)
{
    // 16-bit symbol_error stuck at 65535 (IB PMA counters saturate; counters.md §1.2).
    at(0, {{"counters", "", "symbol_error", 65535}}, 1);
    auto s = at(3600, {{"counters", "", "symbol_error", 65535}}, 3600000001);
    EXPECT_FALSE(find(s, "counter.symbol_error"));
    ASSERT_TRUE(find(s, "counter_saturated.symbol_error"));
    EXPECT_EQ(find(s, "counter_saturated.symbol_error")->severity, ConditionSeverity::Info);
    EXPECT_EQ(s.health.ports.at({"mlx5_0", 1}), Health::Healthy);
    s = at(3605, {{"counters", "", "symbol_error", 0}}, 3605000001); // perfquery -R
    EXPECT_FALSE(find(s, "counter_saturated.symbol_error"));
}

TEST_F(CounterRulesTest, AdminClearOfABreachedCounterRecoversWithCounterReset)
{
    at(0, {{"counters", "", "link_downed", 2}}, 1);
    auto s = at(5, {{"counters", "", "link_downed", 3}}, 5000001);
    ASSERT_TRUE(find(s, "counter.link_downed"));
    EXPECT_EQ(s.health.devices.at("mlx5_0"), Health::Fatal);
    s = at(10, {{"counters", "", "link_downed", 0}}, 10000001);
    EXPECT_FALSE(find(s, "counter.link_downed"));
    EXPECT_EQ(s.health.devices.at("mlx5_0"), Health::Healthy);
    ASSERT_EQ(events_.size(), 1U);
    EXPECT_EQ(events_[0].kind, EventKind::Recovered);
    EXPECT_NE(events_[0].message.find("counter reset"), std::string::npos) << events_[0].message;
    s = at(15, {{"counters", "", "link_downed", 1}}, 15000001);
    EXPECT_TRUE(find(s, "counter.link_downed")) << "growth after the reset counts again";
}

TEST_F(CounterRulesTest, DeviceOverridesWinOverCounterOverridesOverDefaults)
{
    Config c;
    c.counter_rules["symbol_error"].rate = RateLimit{10, 3600};
    c.counter_rules["symbol_error"].severity = RuleSeverity::Fatal;
    c.counter_rules["symbol_error/mlx5_1"].rate = RateLimit{1000, 3600};
    c.counter_rules["link_downed/mlx5_1"].enable = false;
    c.counter_rules["rx_discards_phy"].delta = 5;
    auto r0 = ruleFor("symbol_error", Meaning::None, "mlx5_0", c);
    auto r1 = ruleFor("symbol_error", Meaning::None, "mlx5_1", c);
    ASSERT_TRUE(r0 && r1);
    EXPECT_EQ(r0->severity, ConditionSeverity::Fatal);
    EXPECT_DOUBLE_EQ(r0->threshold, 10);
    EXPECT_DOUBLE_EQ(r0->window_sec, 3600);
    EXPECT_DOUBLE_EQ(r1->threshold, 1000) << "the device's own section wins";
    EXPECT_DOUBLE_EQ(r1->window_sec, 3600);
    EXPECT_EQ(r1->kind, RuleKind::Rate);
    EXPECT_EQ(r1->severity, ConditionSeverity::Fatal) << "what it does not set is inherited";
    EXPECT_FALSE(ruleFor("link_downed", Meaning::None, "mlx5_1", c));
    EXPECT_TRUE(ruleFor("link_downed", Meaning::None, "mlx5_0", c));
    auto extra = ruleFor("rx_discards_phy", Meaning::RxDiscards, "mlx5_0", c);
    ASSERT_TRUE(extra) << "a counter with no default rule gets one from the configuration";
    EXPECT_DOUBLE_EQ(extra->threshold, 5);
    EXPECT_FALSE(ruleFor("rx_discards_phy", Meaning::RxDiscards, "mlx5_0", Config{}));

    engine_.configure(c);
    at(0, {{"counters", "", "symbol_error", 0}}, 1);
    auto s = at(5, {{"counters", "", "symbol_error", 11}}, 5000001);
    ASSERT_TRUE(find(s, "counter.symbol_error"));
    EXPECT_EQ(find(s, "counter.symbol_error")->severity, ConditionSeverity::Fatal);
}

// A reload changes the rules of counters already seen (the engine's rule cache follows it).
TEST_F(CounterRulesTest, AReloadAppliesToCountersAlreadyJudged)
{
    at(0, {{"counters", "", "symbol_error", 0}}, 1);
    auto s = at(5, {{"counters", "", "symbol_error", 500}}, 5000001);
    ASSERT_TRUE(find(s, "counter.symbol_error"));
    EXPECT_EQ(find(s, "counter.symbol_error")->severity, ConditionSeverity::Degraded);

    Config c;
    c.counter_rules["symbol_error"].severity = RuleSeverity::Fatal;
    engine_.configure(c);
    s = at(10, {{"counters", "", "symbol_error", 1000}}, 10000001);
    ASSERT_TRUE(find(s, "counter.symbol_error"));
    EXPECT_EQ(find(s, "counter.symbol_error")->severity, ConditionSeverity::Fatal);

    // The rule is disabled: its condition recovers at the next evaluation, and stays recovered.
    c.counter_rules["symbol_error"].enable = false;
    engine_.configure(c);
    s = at(15, {{"counters", "", "symbol_error", 1500}}, 15000001);
    EXPECT_FALSE(find(s, "counter.symbol_error"));
    bool recovered = false;
    for (const auto& e : events_)
        recovered |= e.code == "counter.symbol_error" && e.kind == EventKind::Recovered;
    EXPECT_TRUE(recovered);
    s = at(20, {{"counters", "", "symbol_error", 2000}}, 20000001);
    EXPECT_FALSE(find(s, "counter.symbol_error"));
}

// The cache answers what ruleFor answers, for every device, across a configuration change.
TEST(CounterRuleCache, AnswersAsRuleForAndFollowsTheConfiguration)
{
    Config c;
    c.counter_rules["symbol_error"].severity = RuleSeverity::Fatal;
    c.counter_rules["symbol_error/mlx5_1"].rate = RateLimit{1000, 3600};
    c.counter_rules["link_downed/mlx5_1"].enable = false;
    c.counter_rules["rx_discards_phy"].delta = 5;
    CounterRuleCache cache;
    cache.reset(c);
    auto same = [&](const std::string& counter, const std::string& device) {
        auto want = ruleFor(counter, test::mlx5Meaning(counter).meaning, device, c);
        const CounterRule* got = cache.find(counter, test::mlx5Meaning(counter).meaning, device, c);
        ASSERT_EQ(want.has_value(), got != nullptr) << counter << " on " << device;
        if (!want)
            return;
        EXPECT_EQ(got->counter, want->counter);
        EXPECT_DOUBLE_EQ(got->threshold, want->threshold) << counter << " on " << device;
        EXPECT_DOUBLE_EQ(got->window_sec, want->window_sec);
        EXPECT_EQ(got->severity, want->severity);
        EXPECT_EQ(got->meaning, want->meaning);
    };
    for (int round = 0; round < 2; ++round) // the second round answers from the cache
        for (const char* device : {"mlx5_0", "mlx5_1"})
            for (const char* counter : {"symbol_error", "link_downed", "rx_discards_phy",
                                        "rx_prio3_pause", "port_rcv_data", "no_such_counter"})
                same(counter, device);
    EXPECT_EQ(cache.find("link_downed", Meaning::None, "mlx5_1", c), nullptr);
    EXPECT_NE(cache.find("link_downed", Meaning::None, "mlx5_0", c), nullptr);

    Config plain; // reloaded without the overrides
    cache.reset(plain);
    EXPECT_EQ(cache.find("rx_discards_phy", Meaning::RxDiscards, "mlx5_0", plain), nullptr);
    ASSERT_NE(cache.find("symbol_error", Meaning::None, "mlx5_0", plain), nullptr);
    EXPECT_EQ(cache.find("symbol_error", Meaning::None, "mlx5_0", plain)->severity,
              ruleFor("symbol_error", Meaning::None, "mlx5_0", plain)->severity);
    EXPECT_NE(cache.find("link_downed", Meaning::None, "mlx5_1", plain), nullptr);
}

TEST(CounterWidth, FollowsTheCounterFamily)
{
    auto width = [](const char* source, const char* name) {
        return counterWidth(source, mlx5::counterMeaning(source, name).wide);
    };
    EXPECT_EQ(width("counters", "symbol_error"), CounterWidth::Saturating);
    EXPECT_EQ(width("counters", "port_xmit_data"), CounterWidth::Saturating);
    EXPECT_EQ(width("hw_counters", "out_of_buffer"), CounterWidth::Wraps32);
    EXPECT_EQ(width("hw_counters", "np_cnp_sent"), CounterWidth::Wide64);
    EXPECT_EQ(width("ethtool", "rx_prio3_pause"), CounterWidth::Wide64);
    EXPECT_EQ(width("hw_counters", "a_new_counter"), CounterWidth::Wraps32)
        << "a hw_counters series its plugin does not call wide may wrap";
    EXPECT_EQ(saturationValue("counters", "symbol_error"), 65535U);
    EXPECT_EQ(saturationValue("counters", "link_downed"), 255U);
    EXPECT_EQ(saturationValue("counters", "local_link_integrity_errors"), 15U);
    EXPECT_EQ(saturationValue("counters", "port_xmit_wait"), 0xffffffffULL);
    EXPECT_FALSE(saturationValue("counters", "port_xmit_data"));
    EXPECT_FALSE(saturationValue("hw_counters", "out_of_buffer"));
}

TEST(CounterStep, WrapResetAndGrowth)
{
    EXPECT_EQ(counterStep(10, 15).increase, 5U);
    EXPECT_EQ(counterStep(0xfffffff0ULL, 0x10, CounterWidth::Wraps32).increase, 0x20U);
    EXPECT_FALSE(counterStep(0xfffffff0ULL, 0x10, CounterWidth::Wraps32).reset);
    EXPECT_TRUE(counterStep(0xfffffff0ULL, 0x10, CounterWidth::Saturating).reset);
    EXPECT_TRUE(counterStep(0xfffffff0ULL, 0x10, CounterWidth::Wide64).reset);
    EXPECT_TRUE(counterStep(5000, 3, CounterWidth::Wraps32).reset) << "bottom half: a reset";
    EXPECT_TRUE(counterStep(0x1ffffffffULL, 3, CounterWidth::Wraps32).reset)
        << "beyond 32 bits, going back is a reset";
    EXPECT_EQ(counterStep(UINT64_MAX, UINT64_MAX).increase, 0U);
}

TEST(CounterTracker, AWindowSurvivesARestartAndMeasuresAcrossIt)
{
    auto rule = *ruleFor("symbol_error", Meaning::None, "mlx5_0", Config{});
    const auto key = CounterTracker::key("mlx5_0", 1, "counters", "", "symbol_error");
    EXPECT_EQ(key, "mlx5_0|1|counters||symbol_error");
    CounterTracker t;
    EXPECT_EQ(t.observe(key, 0, 0, rule, CounterWidth::Saturating).kind,
              CounterObservation::Kind::Baseline);
    auto o = t.observe(key, 100, 1800, rule, CounterWidth::Saturating);
    EXPECT_FALSE(o.breach);
    auto restored = CounterTracker::fromJson(nlohmann::json::parse(t.toJson().dump()));
    o = restored.observe(key, 130, 3000, rule, CounterWidth::Saturating);
    EXPECT_EQ(o.kind, CounterObservation::Kind::Measured);
    EXPECT_EQ(o.grew, 130U) << "the growth before the restart still counts";
    EXPECT_TRUE(o.breach);
    EXPECT_EQ(restored.size(), 1U);
}

TEST(CounterRuleText, DescribesThresholds)
{
    EXPECT_EQ(describeThreshold(*ruleFor("symbol_error", Meaning::None, "x", Config{})),
              "more than 120 per hour");
    EXPECT_EQ(describeThreshold(*ruleFor("link_error_recovery", Meaning::None, "x", Config{})),
              "more than 5 per minute");
    EXPECT_EQ(describeThreshold(*ruleFor("local_ack_timeout_err",
                                         test::mlx5Meaning("local_ack_timeout_err").meaning, "x",
                                         Config{})),
              "more than 1 per second");
    EXPECT_EQ(describeThreshold(*ruleFor("link_downed", Meaning::None, "x", Config{})),
              "any increase");
    EXPECT_EQ(describeThreshold(*ruleFor("rx_prio0_pause_duration",
                                         test::mlx5Meaning("rx_prio0_pause_duration").meaning, "x",
                                         Config{})),
              "more than 30000000 per minute");
}
