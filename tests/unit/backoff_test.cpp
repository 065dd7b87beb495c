// Exponential backoff counted in attempts: 1, 2, 4 … skips up to the cap, reset by a success,
// log-worthy transitions reported once.
#include <nicd/plugin/sdk/backoff.h>

#include <cerrno>

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

// A key refused N reads in a row (EINVAL, EOPNOTSUPP, EACCES) is dropped: tried on the backoff's
// schedule until then (attempts 1, 3 and 6), never after, and said once.
TEST(Backoff, RefusedThreeReadsInARowIsDroppedForGood)
{
    Backoff b;
    std::vector<int> tried;
    std::vector<Backoff::Change> changes;
    const int refusals[] = {EINVAL, EOPNOTSUPP, EACCES};
    for (int attempt = 1; attempt <= 500; ++attempt)
        if (b.shouldTry("f")) {
            tried.push_back(attempt);
            changes.push_back(b.failed("f", refusals[tried.size() % 3]));
        }
    EXPECT_EQ(tried, (std::vector<int>{1, 3, 6}));
    EXPECT_EQ(changes,
              (std::vector<Backoff::Change>{Backoff::Change::StartedFailing, Backoff::Change::None,
                                            Backoff::Change::Dropped}));
    EXPECT_TRUE(b.dropped("f"));
    EXPECT_EQ(b.droppedCount(), 1U);
    EXPECT_EQ(b.failed("f", EINVAL), Backoff::Change::None) << "said once";
    EXPECT_EQ(b.droppedCount(), 1U);
}

// Other errors are passing faults: backed off, never dropped; one in between starts the count of
// refusals over.
TEST(Backoff, OnlyRefusalsInARowDrop)
{
    Backoff b(64, 3);
    for (int err : {EIO, EAGAIN, ETIMEDOUT, EIO, EIO, EIO})
        EXPECT_NE(b.failed("io", err), Backoff::Change::Dropped);
    EXPECT_FALSE(b.dropped("io"));
    b.failed("mixed", EINVAL);
    b.failed("mixed", EINVAL);
    b.failed("mixed", EIO);
    b.failed("mixed", EINVAL);
    EXPECT_FALSE(b.dropped("mixed"));
    EXPECT_EQ(b.failed("mixed", EINVAL), Backoff::Change::None);
    EXPECT_EQ(b.failed("mixed", EINVAL), Backoff::Change::Dropped);
    for (int i = 0; i < 5; ++i)
        b.failed("content"); // garbage content: a failure without an errno is no refusal
    EXPECT_FALSE(b.dropped("content"));
}

TEST(Backoff, ZeroNeverDropsAndAReloadTriesDroppedKeysAgain)
{
    Backoff never(64, 0);
    for (int i = 0; i < 10; ++i)
        never.failed("f", EACCES);
    EXPECT_FALSE(never.dropped("f"));

    Backoff b(64, 1);
    EXPECT_EQ(b.failed("a", EACCES), Backoff::Change::Dropped);
    EXPECT_EQ(b.failed("b", EINVAL), Backoff::Change::Dropped);
    b.failed("c", EIO);
    EXPECT_EQ(b.droppedCount(), 2U);
    b.forget("a");
    EXPECT_EQ(b.droppedCount(), 1U);
    b.retryDropped();
    EXPECT_EQ(b.droppedCount(), 0U);
    EXPECT_TRUE(b.shouldTry("b")) << "tried again, as if it had never failed";
    EXPECT_EQ(b.failures("b"), 0U);
    EXPECT_EQ(b.failures("c"), 1U) << "a passing fault keeps its schedule";
}

TEST(Backoff, PluginsReadTheDaemonsSetting)
{
    using nicd::plugin::sdk::dropAfterSetting;
    EXPECT_EQ(dropAfterSetting(std::nullopt), Backoff::kDropAfter);
    EXPECT_EQ(dropAfterSetting("0"), 0U);
    EXPECT_EQ(dropAfterSetting("7"), 7U);
    EXPECT_EQ(dropAfterSetting("seven"), Backoff::kDropAfter);
}
