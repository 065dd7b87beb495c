#include "collect/cycle_scheduler.hpp"

#include "collect/collector.hpp"
#include "log/log.hpp"
#include "loop/worker.hpp"

#include <memory>
#include <utility>

namespace nicd::collect {

CycleScheduler::CycleScheduler(loop::EventLoop& loop, loop::Worker& worker, Collector& collector,
                               const Config& config, Finished finished, WholeDevices whole)
    : loop_(loop), worker_(worker), collector_(collector), finished_(std::move(finished)),
      whole_(std::move(whole))
{
    configure(config);
}

void CycleScheduler::start()
{
    timer_ = &loop_.every(0, poll_interval_usec_, [this] { startCycle(); });
}

void CycleScheduler::configure(const Config& config)
{
    poll_interval_usec_ = uint64_t{config.daemon.poll_interval_ms} * 1000;
    pma_interval_usec_ = uint64_t{config.daemon.pma_interval_ms} * 1000;
    if (timer_)
        timer_->setInterval(poll_interval_usec_);
}

void CycleScheduler::requestNow()
{
    if (running_)
        again_ = true;
    else
        startCycle();
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
    uint64_t now = loop::EventLoop::nowMonotonicUsec();
    bool read_pma = last_pma_usec_ == 0 || now - last_pma_usec_ >= pma_interval_usec_;
    if (read_pma)
        last_pma_usec_ = now;
    bool rediscover = std::exchange(rediscover_, false);
    worker_.submit(
        [this, read_pma, rediscover, whole = whole_ ? whole_() : std::set<std::string>()] {
            if (rediscover)
                collector_.rediscover();
            auto snap = std::make_shared<Snapshot>(collector_.collect(read_pma, whole));
            loop_.post([this, snap] {
                running_ = false;
                finished_(std::move(*snap));
                if (std::exchange(again_, false))
                    startCycle();
            });
        });
}

} // namespace nicd::collect
