#include "collect/deadline.hpp"

#include "log/log.hpp"

#include <condition_variable>
#include <mutex>
#include <thread>

namespace nicd::collect {

using Clock = std::chrono::steady_clock;

namespace {

// An exception must not end the lane's thread (that would end the daemon): the call counts as
// returned, with whatever it left behind.
void callContained(const std::function<void(size_t)>& job, size_t i)
{
    try {
        job(i);
    } catch (const std::exception& e) {
        log::error({}, "a read on the driver lane failed: {}", e.what());
    } catch (...) {
        log::error({}, "a read on the driver lane failed with an unknown exception");
    }
}

} // namespace

// Everything below is guarded by `mutex`. The thread moves `current`/`started` along without
// waking the caller; it notifies once, when the whole batch is done.
struct DeadlineRunner::Lane {
    std::mutex mutex;
    std::condition_variable cv;
    std::function<void(size_t)> job;
    size_t count = 0;
    size_t current = 0;        // the call being made
    Clock::time_point started; // when it began
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
            size_t count = lane->count;
            lane->has_job = false;
            for (size_t i = 0; i < count && !lane->quit; ++i) {
                lane->current = i;
                lane->started = Clock::now();
                lock.unlock();
                callContained(job, i);
                lock.lock();
            }
            finished->store(true);
            lane->done = true;
            lane->cv.notify_all();
            if (lane->quit)
                return; // abandoned while a call ran
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
    return runEach(
               1, [fn = std::move(fn)](size_t) { fn(); }, timeout, finished) == 1;
}

size_t DeadlineRunner::runEach(size_t n, std::function<void(size_t)> fn,
                               std::chrono::milliseconds timeout,
                               const std::shared_ptr<std::atomic<bool>>& finished)
{
    if (n == 0) {
        finished->store(true);
        return 0;
    }
    if (!lane_) {
        lane_ = std::make_shared<Lane>();
        lane_->thread = std::thread([lane = lane_] { Lane::serve(lane); });
    }
    std::unique_lock lock(lane_->mutex);
    lane_->job = std::move(fn);
    lane_->count = n;
    lane_->current = 0;
    lane_->started = Clock::now();
    lane_->finished = finished;
    lane_->has_job = true;
    lane_->done = false;
    lane_->cv.notify_all();
    for (;;) {
        if (lane_->cv.wait_until(lock, lane_->started + timeout, [&] { return lane_->done; }))
            return n;
        // Woken at the deadline of the call that was running when we went to sleep: the lane may
        // have moved on since, and the call now running has a deadline of its own.
        if (Clock::now() >= lane_->started + timeout)
            break;
    }
    // Abandon the lane: its thread exits when (if ever) the call returns.
    size_t stuck = lane_->current;
    lane_->quit = true;
    lock.unlock();
    lane_->thread.detach();
    lane_.reset();
    return stuck;
}

} // namespace nicd::collect
