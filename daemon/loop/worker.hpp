// One background thread that runs jobs in order. Anything that may block (sysfs counter reads,
// plugin calls, netlink DCB requests, configfs writes) runs here; results go back to the loop
// with EventLoop::post().
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

namespace nicd::loop {

class Worker {
public:
    Worker();
    ~Worker(); // finishes the running job, drops queued ones, joins
    Worker(const Worker&) = delete;
    Worker& operator=(const Worker&) = delete;

    void submit(std::function<void()> job);

private:
    void run();

    mutable std::mutex mutex_;
    std::condition_variable cv_;
    std::deque<std::function<void()>> jobs_;
    bool stopping_ = false;
    std::thread thread_;
};

} // namespace nicd::loop
