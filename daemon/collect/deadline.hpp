// Runs reads that go through the driver on a thread of their own and waits for each at most a
// deadline. A read that does not return (wedged firmware) is left behind on its thread, which is
// abandoned: it cannot be cancelled, but it no longer holds up the cycle, and a fresh thread takes
// the next call. In the common case one long-lived thread serves every call (no thread per read).
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>

namespace nicd {

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

private:
    struct Lane;
    std::shared_ptr<Lane> lane_;
};

} // namespace nicd
