#include "collect/deadline.hpp"

#include <condition_variable>
#include <mutex>
#include <thread>

namespace nicd {

bool runWithDeadline(std::function<void()> fn, std::chrono::milliseconds timeout,
                     const std::shared_ptr<std::atomic<bool>>& finished)
{
    struct Shared {
        std::mutex mutex;
        std::condition_variable cv;
        bool done = false;
    };
    auto shared = std::make_shared<Shared>();
    std::thread t([shared, finished, fn = std::move(fn)] {
        fn();
        finished->store(true);
        std::lock_guard lock(shared->mutex);
        shared->done = true;
        shared->cv.notify_all();
    });
    std::unique_lock lock(shared->mutex);
    bool in_time = shared->cv.wait_for(lock, timeout, [&] { return shared->done; });
    lock.unlock();
    if (in_time)
        t.join();
    else
        t.detach();
    return in_time;
}

} // namespace nicd
