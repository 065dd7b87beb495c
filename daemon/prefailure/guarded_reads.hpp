// The deadline every slow pre-failure read runs under: reads through the driver (a module
// EEPROM page is an I2C transfer through firmware, a devlink dump or a hwmon read a firmware
// command) go to a DeadlineRunner lane, each against the driver timeout. A read that does not
// return is left behind; until it does, the source reads nothing more (no threads pile up) and
// keeps its last values.
#pragma once

#include "collect/deadline.hpp"

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>

namespace nicd::prefailure {

class GuardedReads {
public:
    explicit GuardedReads(std::chrono::milliseconds timeout) : timeout_(timeout) {}

    // Calls fn(0) … fn(n - 1) on the lane. Returns how many returned in time: n, or the index of
    // the call left behind (the calls after it are not made). Returns 0 at once, calling nothing,
    // while a call left behind earlier has not returned. `fn` must own what it touches.
    size_t run(size_t n, std::function<void(size_t)> fn)
    {
        if (finished_ && !finished_->load())
            return 0;
        finished_ = std::make_shared<std::atomic<bool>>(false);
        return runner_.runEach(n, std::move(fn), timeout_, finished_);
    }
    // True while a call left behind has not returned.
    bool stuck() const { return finished_ && !finished_->load(); }

private:
    std::chrono::milliseconds timeout_;
    collect::DeadlineRunner runner_;
    std::shared_ptr<std::atomic<bool>> finished_;
};

} // namespace nicd::prefailure
