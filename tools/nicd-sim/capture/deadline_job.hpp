// Reads that may block inside the kernel (a wedged NIC: a sysfs attribute whose show() waits for
// the firmware, the ethtool ioctl, a netlink request the driver answers under its lock) run as a
// job on a worker thread under a deadline. A thread blocked in the kernel cannot be cancelled, so
// when the deadline passes the worker is left behind, and this contract makes that safe:
//
//   - the job runs holding the job's lock, and lets go of it only around a read
//     (JobGuard::unlocked), whose callable must own what it uses (captured by value);
//   - when the deadline passes, the caller takes the lock (at the job's next read, or when it
//     ends) and marks the job abandoned; a worker that comes back from its read finds the mark
//     and unwinds (JobAbandoned) without touching anything else.
//
// So when runWithDeadline returns, whatever the job changed of the caller's is the caller's
// again, complete up to the read that did not answer. One thread per job; a caller that keeps
// giving up on jobs counts them (JobOutcome::finished) to bound the threads it leaves behind.
#pragma once

#include <chrono>
#include <condition_variable>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

namespace nicd::sim::capture {

// Thrown inside an abandoned job, at its next step: unwinds it.
struct JobAbandoned {};

struct JobState {
    std::mutex m;
    std::condition_variable cv;
    bool done = false;
    bool abandoned = false;
    std::string reading; // what the job reads while it does not hold the lock
    std::exception_ptr error;
};

class JobGuard {
public:
    JobGuard(std::shared_ptr<JobState> state, std::unique_lock<std::mutex>& lock)
        : state_(std::move(state)), lock_(lock)
    {
    }

    // Runs `read` (which may block) without the job's lock; `what` names it for the caller if it
    // does not come back in time. Throws JobAbandoned when the deadline passed meanwhile.
    template <typename Read> auto unlocked(std::string what, Read&& read) -> decltype(read())
    {
        state_->reading = std::move(what);
        lock_.unlock();
        try {
            auto result = read();
            relock();
            return result;
        } catch (const JobAbandoned&) {
            throw;
        } catch (...) {
            relock();
            throw;
        }
    }

private:
    void relock()
    {
        lock_.lock();
        state_->reading.clear();
        if (state_->abandoned)
            throw JobAbandoned{};
    }

    std::shared_ptr<JobState> state_;
    std::unique_lock<std::mutex>& lock_;
};

struct JobOutcome {
    bool finished = true;
    std::string blocked_on; // not finished: what the job was reading
};

// Runs job(guard) on a new thread and waits for it until `deadline`. Finished: the thread is
// joined, and an exception the job threw is thrown here. Not finished: the job is abandoned and
// its thread left behind (it keeps what `job` owns alive until it comes back, if ever).
JobOutcome runWithDeadline(std::function<void(JobGuard&)> job, std::chrono::milliseconds deadline);

} // namespace nicd::sim::capture
