// DeadlineRunner: reads through the driver, one per device, each against its own deadline; a
// call that hangs is left behind without holding up the caller, and nothing after it runs.
#include "collect/deadline.hpp"

#include <future>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

namespace {

struct Calls {
    std::mutex mutex;
    std::vector<size_t> made;
    void add(size_t i)
    {
        std::lock_guard lock(mutex);
        made.push_back(i);
    }
    std::vector<size_t> get()
    {
        std::lock_guard lock(mutex);
        return made;
    }
};

} // namespace

TEST(DeadlineRunner, EveryCallInOrderAndTheLaneServesTheNextBatch)
{
    nicd::collect::DeadlineRunner runner;
    auto calls = std::make_shared<Calls>();
    for (int batch = 0; batch < 3; ++batch) {
        auto finished = std::make_shared<std::atomic<bool>>(false);
        EXPECT_EQ(runner.runEach(
                      5, [calls](size_t i) { calls->add(i); }, 1000ms, finished),
                  5U);
        EXPECT_TRUE(finished->load());
    }
    EXPECT_EQ(calls->get(), (std::vector<size_t>{0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 0, 1, 2, 3, 4}));
    auto none = std::make_shared<std::atomic<bool>>(false);
    EXPECT_EQ(runner.runEach(
                  0, [](size_t) { FAIL() << "no call for an empty batch"; }, 10ms, none),
              0U);
}

// The deadline is per call: a batch of slow devices that each answer in time is not a wedge, even
// when the batch as a whole takes several deadlines.
TEST(DeadlineRunner, TheDeadlineIsPerCallNotPerBatch)
{
    nicd::collect::DeadlineRunner runner;
    auto finished = std::make_shared<std::atomic<bool>>(false);
    auto t0 = Clock::now();
    EXPECT_EQ(runner.runEach(
                  4, [](size_t) { std::this_thread::sleep_for(120ms); }, 300ms, finished),
              4U);
    EXPECT_GE(Clock::now() - t0, 480ms);
}

TEST(DeadlineRunner, AHungCallIsLeftBehindAndNothingAfterItRuns)
{
    nicd::collect::DeadlineRunner runner;
    auto calls = std::make_shared<Calls>();
    auto release = std::make_shared<std::promise<void>>();
    auto released = release->get_future().share();
    auto finished = std::make_shared<std::atomic<bool>>(false);
    auto t0 = Clock::now();
    size_t got = runner.runEach(
        5,
        [calls, released](size_t i) {
            calls->add(i);
            if (i == 2)
                released.wait(); // a firmware command that does not come back
        },
        200ms, finished);
    auto waited = Clock::now() - t0;
    EXPECT_EQ(got, 2U) << "the index of the call still out";
    EXPECT_GE(waited, 200ms);
    EXPECT_LT(waited, 2s) << "the caller is not held by the hung call";
    EXPECT_FALSE(finished->load());

    // The runner carries on with a fresh lane while the old one is stuck.
    auto calls2 = std::make_shared<Calls>();
    auto finished2 = std::make_shared<std::atomic<bool>>(false);
    EXPECT_EQ(runner.runEach(
                  2, [calls2](size_t i) { calls2->add(i); }, 1000ms, finished2),
              2U);
    EXPECT_EQ(calls2->get(), (std::vector<size_t>{0, 1}));

    // When the hung call returns, `finished` says so and the calls after it were never made.
    release->set_value();
    auto until = Clock::now() + 5s;
    while (!finished->load() && Clock::now() < until)
        std::this_thread::sleep_for(5ms);
    EXPECT_TRUE(finished->load());
    std::this_thread::sleep_for(50ms);
    EXPECT_EQ(calls->get(), (std::vector<size_t>{0, 1, 2}));
}

TEST(DeadlineRunner, RunIsABatchOfOne)
{
    nicd::collect::DeadlineRunner runner;
    auto finished = std::make_shared<std::atomic<bool>>(false);
    int value = 0;
    EXPECT_TRUE(runner.run([&value] { value = 7; }, 1000ms, finished));
    EXPECT_EQ(value, 7);
    EXPECT_TRUE(finished->load());

    auto release = std::make_shared<std::promise<void>>();
    auto released = release->get_future().share();
    auto stuck = std::make_shared<std::atomic<bool>>(false);
    EXPECT_FALSE(runner.run([released] { released.wait(); }, 100ms, stuck));
    EXPECT_FALSE(stuck->load());
    release->set_value();
    auto until = Clock::now() + 5s;
    while (!stuck->load() && Clock::now() < until)
        std::this_thread::sleep_for(5ms);
    EXPECT_TRUE(stuck->load());
}

TEST(DeadlineRunner, ACallThatThrowsIsContainedAndTheBatchGoesOn)
{
    nicd::collect::DeadlineRunner runner;
    auto calls = std::make_shared<Calls>();
    auto finished = std::make_shared<std::atomic<bool>>(false);
    EXPECT_EQ(runner.runEach(
                  3,
                  [calls](size_t i) {
                      if (i == 1)
                          throw std::runtime_error("EIO from a counter file");
                      calls->add(i);
                  },
                  1000ms, finished),
              3U);
    EXPECT_EQ(calls->get(), (std::vector<size_t>{0, 2}));
    EXPECT_TRUE(finished->load());
}
