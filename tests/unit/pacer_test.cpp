// The pacing of publishes between cycles (loop/pacer.hpp): a burst at once, then one per period.
#include "loop/pacer.hpp"

#include <gtest/gtest.h>

namespace nicd {
namespace {

constexpr uint64_t kMs = 1000;

TEST(Pacer, ABurstPassesAtOnceThenOnePerPeriod)
{
    loop::Pacer p(4, 250 * kMs);
    uint64_t t = 1'000'000;
    for (int i = 0; i < 4; ++i)
        EXPECT_TRUE(p.take(t)) << i;
    EXPECT_FALSE(p.take(t));
    EXPECT_EQ(p.waitUsec(t), 250 * kMs);
    EXPECT_FALSE(p.take(t + 249 * kMs));
    EXPECT_EQ(p.waitUsec(t + 249 * kMs), 1 * kMs);
    EXPECT_TRUE(p.take(t + 250 * kMs));
    EXPECT_FALSE(p.take(t + 251 * kMs));
    EXPECT_TRUE(p.take(t + 500 * kMs));
}

TEST(Pacer, AStormIsHeldToOnePerPeriodWhateverItsRate)
{
    loop::Pacer p(4, 250 * kMs);
    int passed = 0;
    // 1,000 events a second for 10 s.
    for (uint64_t t = 0; t < 10'000 * kMs; t += kMs)
        passed += p.take(t) ? 1 : 0;
    EXPECT_EQ(passed, 4 + 39); // the burst, then one per 250 ms after the first
}

TEST(Pacer, QuietTimeRefillsTheBurstButNoMore)
{
    loop::Pacer p(3, 100 * kMs);
    for (int i = 0; i < 3; ++i)
        ASSERT_TRUE(p.take(0));
    ASSERT_FALSE(p.take(0));
    // An hour later: the burst again, not 36,000 tokens.
    uint64_t later = 3'600'000 * kMs;
    for (int i = 0; i < 3; ++i)
        EXPECT_TRUE(p.take(later)) << i;
    EXPECT_FALSE(p.take(later));
}

TEST(Pacer, AClockThatStandsStillOrGoesBackGivesNothingExtra)
{
    loop::Pacer p(1, 100 * kMs);
    ASSERT_TRUE(p.take(500 * kMs));
    EXPECT_FALSE(p.take(500 * kMs));
    EXPECT_FALSE(p.take(400 * kMs));
    EXPECT_TRUE(p.take(600 * kMs));
}

} // namespace
} // namespace nicd
