// The wall clock jumps (NTP stepping a drifted clock, an operator's `date -s`, a VM resumed):
// rates, windows and hold times run on the monotonic clock and do not move; the wall clock only
// stamps what is shown ("since", event times), so a jump changes neither a verdict nor the time
// a condition started.
#include "support/health_fixture.hpp"

using namespace nicd;
using namespace nicd::test;

namespace {

class ClockJumpTest : public HealthTest {
protected:
    void SetUp() override
    {
        config_.counter_rules["symbol_error"].rate = RateLimit{100, 3600};
        engine_ = HealthEngine(config_);
    }
    // Evaluates at monotonic time `mono` with the wall clock at `real`.
    Snapshot judge(double mono, double real, uint64_t symbol_errors)
    {
        auto s = snap({device("mlx5_0", 4)}, {{"mlx5_0", "symbol_error", symbol_errors}});
        last_events_ = engine_.evaluate(s, mono, real);
        return s;
    }
};

constexpr double kWall = 1'700'000'000;

} // namespace

TEST_F(ClockJumpTest, AWallClockJumpBackChangesNoRateAndNoSince)
{
    judge(100, kWall, 0);
    auto s = judge(110, kWall + 10, 150); // 150 errors in 10 s: above 100/h
    const Condition* c = find(s, "counter.symbol_error");
    ASSERT_TRUE(c);
    const double since = c->first_seen;
    EXPECT_EQ(since, kWall + 10);

    // The wall clock steps back a day; monotonic time goes on. The condition holds, its start
    // stays where it was, and no growth is invented or lost.
    s = judge(120, kWall - 86400, 150);
    c = find(s, "counter.symbol_error");
    ASSERT_TRUE(c) << "a wall clock step back does not end the window";
    EXPECT_EQ(c->first_seen, since);
}

TEST_F(ClockJumpTest, AWallClockJumpForwardDoesNotAgeAWindowOut)
{
    judge(100, kWall, 0);
    auto s = judge(110, kWall + 10, 150);
    ASSERT_TRUE(find(s, "counter.symbol_error"));
    // A step forward of two days: were windows on the wall clock, the hour would have passed and
    // the condition recovered. Ten monotonic seconds later it has not.
    s = judge(120, kWall + 2 * 86400, 150);
    ASSERT_TRUE(find(s, "counter.symbol_error")) << "still within the monotonic hour";
    EXPECT_EQ(find(s, "counter.symbol_error")->first_seen, kWall + 10);
}

TEST_F(ClockJumpTest, QuietCountersStayQuietWhateverTheWallClockDoes)
{
    // 50 errors spread over a monotonic hour is within 100/h however the wall clock moves: a
    // jump back must not squeeze them into a shorter apparent time, nor a jump forward into a
    // "window" with negative length.
    double wall[] = {kWall, kWall - 3600, kWall + 7200, kWall - 86400, kWall + 1};
    for (int i = 0; i < 5; ++i) {
        auto s = judge(100 + i * 900.0, wall[i], static_cast<uint64_t>(i * 12));
        EXPECT_FALSE(find(s, "counter.symbol_error")) << "step " << i;
        EXPECT_EQ(portHealth(s), Health::Healthy) << "step " << i;
    }
}

TEST_F(ClockJumpTest, AWindowExpiresOnMonotonicTimeEvenWhenTheWallClockStandsStill)
{
    judge(100, kWall, 0);
    auto s = judge(110, kWall, 150);
    ASSERT_TRUE(find(s, "counter.symbol_error"));
    // An hour and more of monotonic time with no new errors; the wall clock was set back to the
    // same second each time (a broken RTC). The window moves on and the condition recovers.
    s = judge(110 + 3700, kWall, 150);
    s = judge(110 + 3800, kWall, 150);
    EXPECT_FALSE(find(s, "counter.symbol_error"));
}
