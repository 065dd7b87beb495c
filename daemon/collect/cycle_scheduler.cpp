#include "collect/cycle_scheduler.hpp"

#include "collect/collector.hpp"
#include "log/log.hpp"
#include "loop/worker.hpp"

#include <memory>
#include <utility>

namespace nicd {

CycleScheduler::CycleScheduler(EventLoop& loop, Worker& worker, Collector& collector,
                               Finished finished)
    : loop_(loop), worker_(worker), collector_(collector), finished_(std::move(finished))
{
}

void CycleScheduler::start(uint32_t poll_interval_ms, uint32_t pma_interval_ms)
{
    pma_interval_usec_ = uint64_t{pma_interval_ms} * 1000;
    timer_ = &loop_.every(0, uint64_t{poll_interval_ms} * 1000, [this] { startCycle(); });
}

void CycleScheduler::setIntervals(uint32_t poll_interval_ms, uint32_t pma_interval_ms)
{
    pma_interval_usec_ = uint64_t{pma_interval_ms} * 1000;
    if (timer_)
        timer_->setInterval(uint64_t{poll_interval_ms} * 1000);
}

void CycleScheduler::startCycle()
{
    if (running_) {
        ++skipped_;
        log::warn({}, "collection cycle still running; skipping this one ({} skipped so far)",
                  skipped_);
        return;
    }
    running_ = true;
    uint64_t now = EventLoop::nowMonotonicUsec();
    bool read_pma = last_pma_usec_ == 0 || now - last_pma_usec_ >= pma_interval_usec_;
    if (read_pma)
        last_pma_usec_ = now;
    bool rediscover = std::exchange(rediscover_, false);
    worker_.submit([this, read_pma, rediscover] {
        if (rediscover)
            collector_.rediscover();
        auto snap = std::make_shared<Snapshot>(collector_.collect(read_pma));
        loop_.post([this, snap] {
            running_ = false;
            finished_(std::move(*snap));
        });
    });
}

} // namespace nicd
