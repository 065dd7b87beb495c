// When the collection cycle runs: every PollIntervalMs on the loop's timer, the slow counters/
// reads every PmaIntervalMs, never two cycles at once (one still reading, behind a slow or wedged
// driver, is not queued behind: the next tick is skipped and counted). Each cycle runs on the
// worker; its snapshot comes back to the loop. Loop thread.
#pragma once

#include "loop/event_loop.hpp"
#include "model/snapshot.hpp"

#include <cstdint>
#include <functional>

namespace nicd {

class Collector;
class Worker;

class CycleScheduler {
public:
    using Finished = std::function<void(Snapshot)>;

    CycleScheduler(EventLoop& loop, Worker& worker, Collector& collector, Finished finished);

    // The first cycle now, then every `poll_interval_ms`.
    void start(uint32_t poll_interval_ms, uint32_t pma_interval_ms);
    // A reload: from the next tick on.
    void setIntervals(uint32_t poll_interval_ms, uint32_t pma_interval_ms);
    // A link or device changed: the next cycle walks the whole sysfs tree again.
    void rediscoverNext() { rediscover_ = true; }

private:
    void startCycle();

    EventLoop& loop_;
    Worker& worker_;
    Collector& collector_;
    Finished finished_;
    EventLoop::Timer* timer_ = nullptr;
    uint64_t pma_interval_usec_ = 0;
    uint64_t last_pma_usec_ = 0;
    bool running_ = false;
    bool rediscover_ = false;
    uint64_t skipped_ = 0;
};

} // namespace nicd
