// Exponential backoff counted in attempts: 1, 2, 4 … skips up to the cap, reset by a success,
// log-worthy transitions reported once.
#include <nicd/plugin/backoff.h>

#include <gtest/gtest.h>

using nicd::plugin::sdk::Backoff;

namespace {

// How many attempts are skipped before `key` is tried again.
int skipsBeforeNextTry(Backoff& b, const std::string& key)
{
    int skipped = 0;
    while (!b.shouldTry(key) && skipped < 1000)
        ++skipped;
    return skipped;
}

} // namespace

TEST(Backoff, AKeyThatNeverFailedIsAlwaysTried)
{
    Backoff b;
    for (int i = 0; i < 5; ++i)
        EXPECT_TRUE(b.shouldTry("f"));
    EXPECT_EQ(b.failures("f"), 0U);
}

TEST(Backoff, SkipsDoubleWithEachFailureUpToTheCap)
{
    Backoff b(64);
    std::vector<int> skips;
    for (int i = 0; i < 9; ++i) {
        b.failed("f");
        skips.push_back(skipsBeforeNextTry(b, "f"));
    }
    EXPECT_EQ(skips, (std::vector<int>{1, 2, 4, 8, 16, 32, 64, 64, 64}));
    EXPECT_EQ(b.failures("f"), 9U);
}

TEST(Backoff, OnlyTheFirstFailureAndTheFirstSuccessAreTransitions)
{
    Backoff b;
    EXPECT_FALSE(b.succeeded("f")); // fine all along
    EXPECT_TRUE(b.failed("f"));
    EXPECT_FALSE(b.failed("f"));
    EXPECT_FALSE(b.failed("f"));
    EXPECT_TRUE(b.succeeded("f"));
    EXPECT_FALSE(b.succeeded("f"));
    EXPECT_EQ(b.failures("f"), 0U);
    EXPECT_TRUE(b.shouldTry("f"));
    EXPECT_TRUE(b.failed("f"));               // failing again after recovering: a new transition
    EXPECT_EQ(skipsBeforeNextTry(b, "f"), 1); // and the schedule starts over
}

TEST(Backoff, UnsupportedSkipsTheCapAtOnceAndIsReportedOnce)
{
    Backoff b(8);
    EXPECT_TRUE(b.unsupported("f"));
    EXPECT_EQ(skipsBeforeNextTry(b, "f"), 8);
    EXPECT_FALSE(b.unsupported("f"));
    EXPECT_EQ(skipsBeforeNextTry(b, "f"), 8);
    EXPECT_TRUE(b.succeeded("f"));
}

TEST(Backoff, KeysAreIndependent)
{
    Backoff b;
    b.failed("a");
    EXPECT_FALSE(b.shouldTry("a"));
    EXPECT_TRUE(b.shouldTry("b"));
    EXPECT_EQ(b.failures("b"), 0U);
}

TEST(Backoff, ForgettingADeviceDropsOnlyItsKeys)
{
    Backoff b;
    b.failed("mlx5_1/ports/1/counters/x");
    b.failed("mlx5_10/ports/1/counters/x");
    b.forget("mlx5_1/");
    EXPECT_EQ(b.failures("mlx5_1/ports/1/counters/x"), 0U);
    EXPECT_EQ(b.failures("mlx5_10/ports/1/counters/x"), 1U);
}
