// The one sd-event loop of the daemon, with the few kinds of sources nicd needs. Everything here
// is called from the loop thread, except post(), which any thread may call.
#pragma once

#include <systemd/sd-event.h>

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>

namespace nicd::loop {

// Owns one sd_event_source; unref on destruction.
class EventSource {
public:
    EventSource() = default;
    explicit EventSource(sd_event_source* s) : source_(s) {}
    ~EventSource();
    EventSource(EventSource&& o) noexcept : source_(o.source_) { o.source_ = nullptr; }
    EventSource& operator=(EventSource&& o) noexcept;
    EventSource(const EventSource&) = delete;
    EventSource& operator=(const EventSource&) = delete;
    sd_event_source* get() const { return source_; }

private:
    sd_event_source* source_ = nullptr;
};

class EventLoop {
public:
    // A periodic timer created by every(); owned by the loop.
    class Timer {
    public:
        virtual ~Timer() = default;
        virtual void setInterval(uint64_t interval_usec) = 0; // from the next expiry on
    };

    // A one-shot timer created by alarm(); owned by the loop.
    class Alarm {
    public:
        virtual ~Alarm() = default;
        // Calls the handler once, `usec` from now; already armed, the earlier time stands.
        virtual void armIn(uint64_t usec) = 0;
        virtual bool armed() const = 0;
    };

    EventLoop();
    ~EventLoop();
    EventLoop(const EventLoop&) = delete;
    EventLoop& operator=(const EventLoop&) = delete;

    sd_event* get() const { return event_; }

    // Blocks `signo` for the process and calls `handler` on the loop when it arrives.
    void onSignal(int signo, std::function<void()> handler);

    // Calls `handler` every `interval_usec` (CLOCK_MONOTONIC), first after `first_usec`.
    Timer& every(uint64_t first_usec, uint64_t interval_usec, std::function<void()> handler);

    // A one-shot timer, disarmed until armIn().
    Alarm& alarm(std::function<void()> handler);

    // Thread-safe: runs `fn` on the loop thread soon.
    void post(std::function<void()> fn);

    // Pings the service manager's watchdog when WATCHDOG_USEC is set.
    void enableWatchdog();

    int run();
    void exit(int code);

    static uint64_t nowMonotonicUsec();

private:
    struct Handler;
    struct AlarmHandler;
    sd_event* event_ = nullptr;
    int wake_fd_ = -1;
    EventSource wake_source_;
    std::mutex posted_mutex_;
    std::deque<std::function<void()>> posted_;
    std::deque<std::unique_ptr<Handler>> handlers_;
    std::deque<std::unique_ptr<AlarmHandler>> alarms_;
    std::deque<EventSource> sources_;

    static int onWake(sd_event_source*, int fd, uint32_t, void* self);
};

} // namespace nicd::loop
