#include "collect/deadline.hpp"

#include <condition_variable>
#include <mutex>
#include <thread>

namespace nicd {

struct DeadlineRunner::Lane {
    std::mutex mutex;
    std::condition_variable cv;
    std::function<void()> job;
    std::shared_ptr<std::atomic<bool>> finished;
    bool has_job = false;
    bool done = false;
    bool quit = false;
    std::thread thread;

    static void serve(const std::shared_ptr<Lane>& lane)
    {
        std::unique_lock lock(lane->mutex);
        for (;;) {
            lane->cv.wait(lock, [&] { return lane->quit || lane->has_job; });
            if (!lane->has_job)
                return;
            auto job = std::move(lane->job);
            auto finished = lane->finished;
            lane->has_job = false;
            lock.unlock();
            job();
            finished->store(true);
            lock.lock();
            lane->done = true;
            lane->cv.notify_all();
            if (lane->quit)
                return; // abandoned while this job ran
        }
    }
};

DeadlineRunner::~DeadlineRunner()
{
    if (!lane_)
        return;
    {
        std::lock_guard lock(lane_->mutex);
        lane_->quit = true;
    }
    lane_->cv.notify_all();
    lane_->thread.join(); // idle: every call returned in time
}

bool DeadlineRunner::run(std::function<void()> fn, std::chrono::milliseconds timeout,
                         const std::shared_ptr<std::atomic<bool>>& finished)
{
    if (!lane_) {
        lane_ = std::make_shared<Lane>();
        lane_->thread = std::thread([lane = lane_] { Lane::serve(lane); });
    }
    std::unique_lock lock(lane_->mutex);
    lane_->job = std::move(fn);
    lane_->finished = finished;
    lane_->has_job = true;
    lane_->done = false;
    lane_->cv.notify_all();
    if (lane_->cv.wait_for(lock, timeout, [&] { return lane_->done; }))
        return true;
    // Abandon the lane: its thread exits when (if ever) the job returns.
    lane_->quit = true;
    lock.unlock();
    lane_->thread.detach();
    lane_.reset();
    return false;
}

} // namespace nicd
