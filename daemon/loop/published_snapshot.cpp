#include "loop/published_snapshot.hpp"

#include <utility>

namespace nicd::loop {

void PublishedSnapshot::attach(EventLoop& loop)
{
    alarm_ = &loop.alarm([this] {
        if (pending_ && last_) {
            (void)pacer_.take(EventLoop::nowMonotonicUsec());
            publish();
        }
    });
}

void PublishedSnapshot::replace(Snapshot snap)
{
    pending_ = false;
    stages_.publish(snap);
    last_ = std::move(snap);
    // No malloc_trim here: the peak is the cycle's own (two snapshots while the new one is made),
    // and pages handed back after every cycle were faulted in and zeroed again by the next one
    // (about 1 ms of CPU a cycle on 64 devices). So between cycles the resident size stays near
    // the peak (glibc gives back only a free top of the heap beyond its trim threshold, which it
    // raises once large blocks have been freed); the peak itself is unchanged.
}

bool PublishedSnapshot::amend(const std::function<void(Snapshot&)>& change, Judge judge,
                              Publish when)
{
    if (!last_)
        return false;
    change(*last_);
    if (judge == Judge::Report)
        stages_.report(*last_);
    if (judge == Judge::Evaluate) {
        // The copy leaves the ~10,000 samples behind; only its health comes back.
        auto samples = std::move(last_->samples);
        Snapshot without_samples = *last_;
        last_->samples = std::move(samples);
        stages_.evaluate(without_samples);
        last_->health = std::move(without_samples.health);
    }
    if (when == Publish::Now || (when == Publish::Paced && !alarm_)) {
        publish();
        return true;
    }
    if (when == Publish::WithNext)
        return true;
    pending_ = true;
    if (alarm_->armed())
        return true; // goes out with the one already waiting
    uint64_t now = EventLoop::nowMonotonicUsec();
    if (pacer_.take(now))
        publish();
    else
        alarm_->armIn(pacer_.waitUsec(now));
    return true;
}

void PublishedSnapshot::publish()
{
    pending_ = false;
    stages_.publish(*last_);
}

} // namespace nicd::loop
