// Runs a read that goes through the driver on a thread of its own and waits for it at most a
// deadline. A read that does not return (wedged firmware) is left behind, detached: it cannot be
// cancelled, but it no longer holds up the cycle. `finished` turns true whenever it does return.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>

namespace nicd {

// True when `fn` returned within `timeout`. `fn` must own everything it touches (it may outlive
// the caller).
bool runWithDeadline(std::function<void()> fn, std::chrono::milliseconds timeout,
                     const std::shared_ptr<std::atomic<bool>>& finished);

} // namespace nicd
