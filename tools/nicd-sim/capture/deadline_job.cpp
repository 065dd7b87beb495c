#include "capture/deadline_job.hpp"

#include <thread>

namespace nicd::sim::capture {

JobOutcome runWithDeadline(std::function<void(JobGuard&)> job, std::chrono::milliseconds deadline)
{
    auto state = std::make_shared<JobState>();
    std::thread worker([state, job = std::move(job)]() mutable {
        std::unique_lock lock(state->m);
        if (state->abandoned)
            return; // given up on before it started
        try {
            JobGuard guard(state, lock);
            job(guard);
        } catch (const JobAbandoned&) {
            return; // the caller has moved on: touch nothing
        } catch (...) {
            state->error = std::current_exception();
        }
        state->done = true;
        state->cv.notify_all();
    });
    std::unique_lock lock(state->m);
    if (state->cv.wait_for(lock, deadline, [&] { return state->done; })) {
        lock.unlock();
        worker.join();
        if (state->error)
            std::rethrow_exception(state->error);
        return {};
    }
    state->abandoned = true;
    JobOutcome outcome{false, state->reading};
    lock.unlock();
    worker.detach();
    return outcome;
}

} // namespace nicd::sim::capture
