// When the collection cycle runs: every PollIntervalMs on the loop's timer, the slow counters/
// reads every PmaIntervalMs, never two cycles at once (one still reading, behind a slow or wedged
// driver, is not queued behind: the next tick is skipped and counted). Each cycle runs on the
// worker; its snapshot comes back to the loop. Loop thread.
#pragma once

#include "config/config.hpp"
#include "loop/event_loop.hpp"
#include "model/snapshot.hpp"

#include <cstdint>
#include <functional>
#include <set>
#include <string>

namespace nicd::loop {
class Worker;
}

namespace nicd::collect {

class Collector;

class CycleScheduler {
public:
    using Finished = std::function<void(Snapshot)>;
    // The devices whose every statistic a cycle keeps (asked as it starts, on the loop).
    using WholeDevices = std::function<std::set<std::string>()>;

    // Every [daemon] PollIntervalMs=, the counters/ every PmaIntervalMs= of `config`.
    CycleScheduler(loop::EventLoop& loop, loop::Worker& worker, Collector& collector,
                   const Config& config, Finished finished, WholeDevices whole = {});

    // The first cycle now, then every poll interval.
    void start();
    // A reload: the new intervals from the next tick on.
    void configure(const Config& config);
    // A link or device changed: the next cycle walks the whole sysfs tree again.
    void rediscoverNext() { rediscover_ = true; }
    // A caller waits for a cycle (every statistic of a device): one now, or right after the one
    // that is running (which started before the caller asked).
    void requestNow();

private:
    void startCycle();

    loop::EventLoop& loop_;
    loop::Worker& worker_;
    Collector& collector_;
    Finished finished_;
    loop::EventLoop::Timer* timer_ = nullptr;
    uint64_t poll_interval_usec_ = 0;
    uint64_t pma_interval_usec_ = 0;
    uint64_t last_pma_usec_ = 0;
    bool running_ = false;
    bool rediscover_ = false;
    bool again_ = false; // requestNow() while a cycle ran
    WholeDevices whole_;
    uint64_t skipped_ = 0;
};

} // namespace nicd::collect
