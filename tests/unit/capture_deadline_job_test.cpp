// A capture's reads of one device run as a job under a deadline: a job that ends is waited for
// (its exception too); one whose read does not come back is given up on at the deadline, says
// what it was reading, and never touches the caller's objects again, even when its read returns.
#include "capture/deadline_job.hpp"

#include <chrono>
#include <future>
#include <stdexcept>
#include <thread>

#include <gtest/gtest.h>

using namespace nicd::sim::capture;
using namespace std::chrono_literals;

TEST(CaptureDeadlineJob, AJobThatEndsIsWaitedFor)
{
    std::vector<int> seen;
    auto outcome = runWithDeadline(
        [&seen](JobGuard& g) {
            seen.push_back(1);
            seen.push_back(g.unlocked("a file", [] { return 2; }));
        },
        10s);
    EXPECT_TRUE(outcome.finished);
    EXPECT_EQ(seen, (std::vector<int>{1, 2}));
    EXPECT_THROW(runWithDeadline([](JobGuard&) { throw std::runtime_error("no"); }, 10s),
                 std::runtime_error);
}

TEST(CaptureDeadlineJob, AReadThatDoesNotAnswerIsGivenUpOnAtTheDeadline)
{
    std::promise<void> release;
    auto released = release.get_future().share();
    auto seen = std::make_shared<std::vector<std::string>>();
    std::atomic<bool> came_back{false};
    auto start = std::chrono::steady_clock::now();
    auto outcome = runWithDeadline(
        [seen, released, &came_back](JobGuard& g) {
            seen->push_back(g.unlocked("ports/1/counters/a", [] { return std::string("a"); }));
            seen->push_back(g.unlocked("ports/1/state", [released, &came_back] {
                released.wait(); // a firmware command that does not come back
                came_back = true;
                return std::string("b");
            }));
            seen->push_back("after");
        },
        200ms);
    auto took = std::chrono::steady_clock::now() - start;
    EXPECT_FALSE(outcome.finished);
    EXPECT_EQ(outcome.blocked_on, "ports/1/state");
    EXPECT_GE(took, 200ms);
    EXPECT_LT(took, 5s);
    EXPECT_EQ(*seen, std::vector<std::string>{"a"});
    // The read comes back after all: the job unwinds without adding to what is now the caller's.
    release.set_value();
    while (!came_back)
        std::this_thread::sleep_for(1ms);
    std::this_thread::sleep_for(50ms);
    EXPECT_EQ(*seen, std::vector<std::string>{"a"});
}
