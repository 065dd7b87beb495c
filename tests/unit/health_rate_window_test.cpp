// The window arithmetic of counter rules (counter_tracker.hpp): Rate=N/unit is a count within a
// sliding window of that unit, never an extrapolation of a burst; Delta=N is the growth between
// two reads, held for 10 minutes. Bursts, the exact budget, expiry, wraps, resets, a restart in
// the middle of a window, a new boot, and the memory a window costs.
#include "health/counter_rules.hpp"
#include "health/counter_tracker.hpp"
#include "health/health_engine.hpp"
#include "support/health_fixture.hpp"

#include <gtest/gtest.h>

using namespace nicd;
using namespace nicd::health;

namespace {

CounterRule rate(double n, double window)
{
    CounterRule r;
    r.counter = "symbol_error";
    r.kind = RuleKind::Rate;
    r.threshold = n;
    r.window_sec = window;
    return r;
}

CounterRule delta(double n)
{
    CounterRule r;
    r.counter = "link_downed";
    r.kind = RuleKind::Delta;
    r.threshold = n;
    r.window_sec = kDeltaHoldSec;
    return r;
}

const std::string kKey = "mlx5_0|1|counters||symbol_error";

// Reads every `step` seconds from `from` to `to`, the counter at `value(t)`.
CounterObservation readEvery(CounterTracker& t, const CounterRule& r, double from, double to,
                             double step, const std::function<uint64_t(double)>& value,
                             CounterWidth w = CounterWidth::Saturating)
{
    CounterObservation o;
    for (double x = from; x <= to + 1e-9; x += step)
        o = t.observe(kKey, value(x), x, r, w);
    return o;
}

} // namespace

// The misfire this replaces: 5 symbol errors between two 1 s polls are 5 within the hour, not
// "18,000 per hour", and raise nothing against 120/h.
TEST(RateWindow, ABurstUnderTheBudgetRaisesNothingHoweverFast)
{
    CounterTracker t;
    auto r = rate(120, 3600);
    t.observe(kKey, 0, 100, r, CounterWidth::Saturating);
    auto o = t.observe(kKey, 5, 101, r, CounterWidth::Saturating);
    EXPECT_EQ(o.kind, CounterObservation::Kind::Measured);
    EXPECT_EQ(o.grew, 5U);
    EXPECT_FALSE(o.breach);
    o = t.observe(kKey, 120, 102, r, CounterWidth::Saturating);
    EXPECT_EQ(o.grew, 120U);
    EXPECT_FALSE(o.breach) << "exactly the budget, in two seconds";
    o = t.observe(kKey, 121, 103, r, CounterWidth::Saturating);
    EXPECT_TRUE(o.breach) << "one more than the budget inside the window";
}

// A window that is not yet filled judges what it holds: 200 errors in the first minute of an
// hourly 120/h rule breach; 5 do not.
TEST(RateWindow, AWindowNotYetFilledJudgesWhatItHas)
{
    CounterTracker t;
    auto r = rate(120, 3600);
    t.observe(kKey, 1000, 0, r, CounterWidth::Saturating);
    auto o = readEvery(t, r, 1, 60, 1, [](double x) { return 1000 + uint64_t(x * 200 / 60); });
    EXPECT_TRUE(o.breach);
    EXPECT_EQ(o.grew, 200U);
    EXPECT_NEAR(o.span, 60, 1e-9) << "the window covers what was seen, not the hour";

    CounterTracker quiet;
    quiet.observe(kKey, 0, 0, r, CounterWidth::Saturating);
    o = readEvery(quiet, r, 1, 60, 1, [](double x) { return x >= 30 ? 5 : 0; });
    EXPECT_FALSE(o.breach);
    EXPECT_EQ(o.grew, 5U);
}

// Growth leaves the window once it is older than the window (within one bucket, 1/60 of it), and
// then the condition recovers.
TEST(RateWindow, GrowthExpiresWithTheWindow)
{
    CounterTracker t;
    auto r = rate(10, 60);
    t.observe(kKey, 0, 0, r, CounterWidth::Saturating);
    auto o = t.observe(kKey, 11, 1, r, CounterWidth::Saturating);
    ASSERT_TRUE(o.breach);
    o = readEvery(t, r, 2, 59, 1, [](double) { return 11; });
    EXPECT_TRUE(o.breach) << "59 s later the burst is still inside the minute";
    o = readEvery(t, r, 60, 61, 1, [](double) { return 11; });
    EXPECT_FALSE(o.breach) << "a minute later it has left it";
    EXPECT_EQ(o.grew, 0U);
}

// Spread growth: the sum of the window, not the rate of one step. 2 errors a minute is exactly
// 120 an hour (no breach); one more within the hour is a breach; after an hour of the old pace
// the window slides and holds 120 again.
TEST(RateWindow, SteadyGrowthIsSummedOverTheSlidingWindow)
{
    CounterTracker t;
    auto r = rate(120, 3600);
    uint64_t v = 0;
    t.observe(kKey, v, 0, r, CounterWidth::Saturating);
    CounterObservation o;
    for (int minute = 1; minute <= 120; ++minute) {
        v += 2;
        o = t.observe(kKey, v, minute * 60.0, r, CounterWidth::Saturating);
        ASSERT_FALSE(o.breach) << "minute " << minute << ": " << o.grew;
    }
    EXPECT_LE(o.grew, 120U);
    EXPECT_GE(o.grew, 118U) << "the window holds the last hour (to one bucket)";
    o = t.observe(kKey, v + 3, 120 * 60.0 + 1, r, CounterWidth::Saturating);
    EXPECT_TRUE(o.breach);
}

// A 32-bit wrap counts the real growth; a reset (driver reload, admin clear) adds nothing and
// starts a new window; a saturated counter adds nothing.
TEST(RateWindow, WrapsResetsAndSaturationAddNoFalseGrowth)
{
    auto r = rate(100, 60);
    CounterTracker t;
    const uint64_t top = (uint64_t{1} << 32) - 10;
    t.observe(kKey, top, 0, r, CounterWidth::Wraps32);
    auto o = t.observe(kKey, 20, 1, r, CounterWidth::Wraps32);
    EXPECT_EQ(o.grew, 30U) << "10 to the wrap, 20 after it";
    EXPECT_FALSE(o.breach);

    CounterTracker reset;
    reset.observe(kKey, 50, 0, r, CounterWidth::Saturating);
    o = reset.observe(kKey, 90, 1, r, CounterWidth::Saturating);
    EXPECT_EQ(o.grew, 40U);
    o = reset.observe(kKey, 3, 2, r, CounterWidth::Saturating);
    EXPECT_EQ(o.kind, CounterObservation::Kind::Reset);
    o = reset.observe(kKey, 5, 3, r, CounterWidth::Saturating);
    EXPECT_EQ(o.grew, 2U) << "the window starts again at the reset: nothing before it counts";

    CounterTracker sat;
    sat.observe(kKey, 65535, 0, r, CounterWidth::Saturating);
    for (int i = 1; i < 10; ++i)
        o = sat.observe(kKey, 65535, i, r, CounterWidth::Saturating);
    EXPECT_EQ(o.grew, 0U);
    EXPECT_FALSE(o.breach);
}

// The window survives a restart in its middle (the state file), and a read from before the
// restart is the baseline of the first read after it.
TEST(RateWindow, ARestartInTheMiddleOfAWindowKeepsIt)
{
    auto r = rate(120, 3600);
    CounterTracker t;
    t.observe(kKey, 0, 0, r, CounterWidth::Saturating);
    t.observe(kKey, 100, 1200, r, CounterWidth::Saturating);
    auto restored = CounterTracker::fromJson(nlohmann::json::parse(t.toJson().dump()));
    auto o = restored.observe(kKey, 115, 1800, r, CounterWidth::Saturating);
    EXPECT_EQ(o.grew, 115U);
    EXPECT_FALSE(o.breach);
    o = restored.observe(kKey, 121, 2400, r, CounterWidth::Saturating);
    EXPECT_EQ(o.grew, 121U) << "growth from before the restart still counts";
    EXPECT_TRUE(o.breach);
    // A layout this nicd does not know (an older one) re-baselines that counter only.
    auto old = nlohmann::json::parse(
        R"({"a": {"last_value": 5, "last_time": 1, "cumulative": 0, "points": []}})");
    EXPECT_EQ(CounterTracker::fromJson(old).size(), 0U);
    EXPECT_THROW(CounterTracker::fromJson(nlohmann::json::parse(
                     R"({"a": {"value": 1, "time": 1, "since": 0, "width": 60,
                              "newest": 3, "buckets": [1, 2]}})")),
                 std::exception);
}

// A new boot forgets every window: the engine's baseline starts afresh.
TEST(RateWindow, ANewBootStartsEveryWindowAfresh)
{
    HealthEngine engine{Config{}};
    Snapshot s;
    s.inventory.devices.push_back(test::device("mlx5_0", 4));
    DeviceSamples ds;
    ds.ibdev = "mlx5_0";
    addSamples(ds, {{"counters", 1, "", "symbol_error", 0, SampleKind::Counter}});
    s.samples.push_back(ds);
    auto read = [&](double t, uint64_t v) {
        s.samples[0].pma.values[0] = v;
        s.samples[0].pma_monotonic_usec = static_cast<uint64_t>(t * 1e6);
        engine.evaluate(s, t, t);
        for (const auto& c : s.health.conditions)
            if (c.code == "counter.symbol_error")
                return true;
        return false;
    };
    read(1, 0);
    EXPECT_FALSE(read(2, 100));
    engine.baseline("new boot", 3);
    EXPECT_FALSE(read(3, 500)) << "the first read after a new boot is only a baseline";
    EXPECT_FALSE(read(4, 600)) << "100 since the baseline";
    EXPECT_TRUE(read(5, 621));
}

// Reads further apart than the window: the growth between them is judged against the allowance
// of the time it covers (10/s read every 5 s allows 50).
TEST(RateWindow, ReadsFurtherApartThanTheWindowScaleTheAllowance)
{
    CounterTracker t;
    auto r = rate(10, 1);
    t.observe(kKey, 0, 0, r, CounterWidth::Wide64);
    auto o = t.observe(kKey, 50, 5, r, CounterWidth::Wide64);
    EXPECT_FALSE(o.breach);
    EXPECT_NEAR(o.span, 5, 1e-9);
    o = t.observe(kKey, 101, 10, r, CounterWidth::Wide64);
    EXPECT_TRUE(o.breach);
}

// A quiet counter keeps no buckets; one with growth keeps a fixed kBuckets, however long it runs
// and whatever the poll.
TEST(RateWindow, AWindowCostsAFixedSizeAndNothingWhenQuiet)
{
    CounterTracker t;
    auto r = rate(120, 3600);
    t.observe(kKey, 0, 0, r, CounterWidth::Saturating);
    readEvery(t, r, 1, 600, 1, [](double) { return 0; });
    EXPECT_FALSE(t.toJson()[kKey].contains("buckets")) << "quiet: no buckets";
    readEvery(t, r, 601, 4200, 1, [](double x) { return uint64_t(x / 100); });
    EXPECT_EQ(t.toJson()[kKey]["buckets"].size(), CounterTracker::kBuckets);
    readEvery(t, r, 4201, 8000, 10, [](double) { return 42; });
    EXPECT_FALSE(t.toJson()[kKey].contains("buckets")) << "an hour quiet again: freed";
}

// Delta=N: more than N between two reads; the condition holds until no read grew by more than N
// for 10 minutes (a single link_downed is seen by every scrape meanwhile).
TEST(DeltaRule, JudgesEachStepAndHoldsTenMinutes)
{
    CounterTracker t;
    auto r = delta(2);
    t.observe(kKey, 0, 0, r, CounterWidth::Saturating);
    auto o = t.observe(kKey, 2, 1, r, CounterWidth::Saturating);
    EXPECT_FALSE(o.breach) << "exactly N";
    o = t.observe(kKey, 5, 2, r, CounterWidth::Saturating);
    EXPECT_TRUE(o.breach);
    EXPECT_FALSE(o.held);
    EXPECT_EQ(o.grew, 3U);
    o = t.observe(kKey, 6, 3, r, CounterWidth::Saturating);
    EXPECT_TRUE(o.breach);
    EXPECT_TRUE(o.held) << "nothing new, still within the hold";
    o = t.observe(kKey, 6, 2 + kDeltaHoldSec - 1, r, CounterWidth::Saturating);
    EXPECT_TRUE(o.held);
    o = t.observe(kKey, 6, 2 + kDeltaHoldSec, r, CounterWidth::Saturating);
    EXPECT_FALSE(o.breach) << "quiet for the hold";
    // Spread growth of N per read never breaches, however long.
    CounterTracker spread;
    spread.observe(kKey, 0, 0, r, CounterWidth::Saturating);
    o = readEvery(spread, r, 1, 100, 1, [](double x) { return uint64_t(x) * 2; });
    EXPECT_FALSE(o.breach);
}

// Rate=120/h from the configuration is 120 within an hour (it used to become 2 per minute).
TEST(RateWindow, ConfiguredRatesKeepTheirUnit)
{
    Config c;
    c.counter_rules["symbol_error"].rate = RateLimit{120, 3600};
    auto r = *ruleFor("symbol_error", Meaning::None, "mlx5_0", c);
    EXPECT_EQ(r.kind, RuleKind::Rate);
    EXPECT_DOUBLE_EQ(r.threshold, 120);
    EXPECT_DOUBLE_EQ(r.window_sec, 3600);
    EXPECT_EQ(describeThreshold(r), "more than 120 per hour");
    c.counter_rules["symbol_error"].delta = 0;
    c.counter_rules["symbol_error"].rate.reset();
    r = *ruleFor("symbol_error", Meaning::None, "mlx5_0", c);
    EXPECT_EQ(r.kind, RuleKind::Delta);
    EXPECT_EQ(describeThreshold(r), "any increase");
}
