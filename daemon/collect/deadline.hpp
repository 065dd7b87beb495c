// Runs reads that go through the driver on a thread of their own and waits for each at most a
// deadline. A read that does not return (wedged firmware) is left behind on its thread, which is
// abandoned: it cannot be cancelled, but it no longer holds up the cycle, and a fresh thread takes
// the next call. In the common case one long-lived thread serves every call (no thread per read),
// and a batch of calls (one per device) costs one hand-off, not one per call.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>

namespace nicd::collect {

class DeadlineRunner {
public:
    DeadlineRunner() = default;
    ~DeadlineRunner();
    DeadlineRunner(const DeadlineRunner&) = delete;
    DeadlineRunner& operator=(const DeadlineRunner&) = delete;

    // True when `fn` returned within `timeout`. `fn` must own everything it touches (it may outlive
    // the caller). `finished` turns true whenever it returns, in time or not.
    bool run(std::function<void()> fn, std::chrono::milliseconds timeout,
             const std::shared_ptr<std::atomic<bool>>& finished);

    // Calls fn(0), fn(1) … fn(n - 1) in order on the lane, each against its own `timeout` (n calls
    // may take up to n × timeout in all). Returns n when every call returned in time; otherwise
    // the index of the call that did not: the lane is abandoned, the calls after it are not made,
    // and `finished` turns true when that call returns. Calls before it have returned.
    size_t runEach(size_t n, std::function<void(size_t)> fn, std::chrono::milliseconds timeout,
                   const std::shared_ptr<std::atomic<bool>>& finished);

private:
    struct Lane;
    std::shared_ptr<Lane> lane_;
};

} // namespace nicd::collect
