#include "loop/worker.hpp"

#include "log/log.hpp"

#include <exception>

namespace nicd::loop {

Worker::Worker() : thread_([this] { run(); }) {}

Worker::~Worker()
{
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
        jobs_.clear();
    }
    cv_.notify_all();
    thread_.join();
}

void Worker::submit(std::function<void()> job)
{
    {
        std::lock_guard lock(mutex_);
        jobs_.push_back(std::move(job));
    }
    cv_.notify_one();
}

void Worker::run()
{
    for (;;) {
        std::function<void()> job;
        {
            std::unique_lock lock(mutex_);
            cv_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
            if (stopping_)
                return;
            job = std::move(jobs_.front());
            jobs_.pop_front();
        }
        try {
            job();
        } catch (const std::exception& e) {
            log::error({}, "background job failed: {}", e.what());
        }
    }
}

} // namespace nicd::loop
