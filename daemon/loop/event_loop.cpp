#include "loop/event_loop.hpp"

#include <sys/eventfd.h>
#include <unistd.h>

#include <csignal>
#include <cstring>
#include <ctime>
#include <stdexcept>
#include <string>

namespace nicd::loop {

namespace {
void check(int r, const char* what)
{
    if (r < 0)
        throw std::runtime_error(std::string(what) + ": " + std::strerror(-r));
}
} // namespace

struct EventLoop::Handler final : EventLoop::Timer {
    Handler(std::function<void()> f, uint64_t interval) : fn(std::move(f)), interval_usec(interval)
    {
    }
    void setInterval(uint64_t usec) override { interval_usec = usec; }
    std::function<void()> fn;
    uint64_t interval_usec = 0;
};

struct EventLoop::AlarmHandler final : EventLoop::Alarm {
    explicit AlarmHandler(std::function<void()> f) : fn(std::move(f)) {}
    void armIn(uint64_t usec) override
    {
        uint64_t at = nowMonotonicUsec() + usec;
        int enabled = SD_EVENT_OFF;
        sd_event_source_get_enabled(source, &enabled);
        uint64_t current = 0;
        if (enabled != SD_EVENT_OFF && sd_event_source_get_time(source, &current) >= 0 &&
            current <= at)
            return;
        sd_event_source_set_time(source, at);
        sd_event_source_set_enabled(source, SD_EVENT_ONESHOT);
    }
    bool armed() const override
    {
        int enabled = SD_EVENT_OFF;
        sd_event_source_get_enabled(source, &enabled);
        return enabled != SD_EVENT_OFF;
    }
    std::function<void()> fn;
    sd_event_source* source = nullptr; // owned by the loop's sources_
};

EventSource::~EventSource()
{
    sd_event_source_unref(source_);
}

EventSource& EventSource::operator=(EventSource&& o) noexcept
{
    if (this != &o) {
        sd_event_source_unref(source_);
        source_ = o.source_;
        o.source_ = nullptr;
    }
    return *this;
}

EventLoop::EventLoop()
{
    check(sd_event_new(&event_), "sd_event_new");
    wake_fd_ = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (wake_fd_ < 0)
        throw std::runtime_error(std::string("eventfd: ") + std::strerror(errno));
    sd_event_source* s = nullptr;
    check(sd_event_add_io(event_, &s, wake_fd_, EPOLLIN, &EventLoop::onWake, this),
          "sd_event_add_io");
    wake_source_ = EventSource(s);
}

EventLoop::~EventLoop()
{
    sources_.clear();
    wake_source_ = EventSource();
    if (wake_fd_ >= 0)
        close(wake_fd_);
    sd_event_unref(event_);
}

void EventLoop::onSignal(int signo, std::function<void()> handler)
{
    sigset_t mask;
    sigemptyset(&mask);
    sigaddset(&mask, signo);
    check(-pthread_sigmask(SIG_BLOCK, &mask, nullptr), "pthread_sigmask");
    auto& h = handlers_.emplace_back(std::make_unique<Handler>(std::move(handler), 0));
    sd_event_source* s = nullptr;
    check(sd_event_add_signal(
              event_, &s, signo,
              [](sd_event_source*, const signalfd_siginfo*, void* data) -> int {
                  static_cast<Handler*>(data)->fn();
                  return 0;
              },
              h.get()),
          "sd_event_add_signal");
    sources_.emplace_back(s);
}

EventLoop::Timer& EventLoop::every(uint64_t first_usec, uint64_t interval_usec,
                                   std::function<void()> handler)
{
    auto& h = handlers_.emplace_back(std::make_unique<Handler>(std::move(handler), interval_usec));
    sd_event_source* s = nullptr;
    // 1 ms accuracy: sd-event's default (250 ms) would fire a short period late and then twice.
    check(sd_event_add_time_relative(
              event_, &s, CLOCK_MONOTONIC, first_usec, 1000,
              [](sd_event_source* src, uint64_t usec, void* data) -> int {
                  auto* handler = static_cast<Handler*>(data);
                  // Re-arm from the scheduled time so the period does not drift; ticks missed
                  // while the loop was busy are dropped, not fired in a burst.
                  uint64_t now = nowMonotonicUsec();
                  uint64_t next = usec + handler->interval_usec;
                  if (handler->interval_usec > 0 && next <= now)
                      next += ((now - next) / handler->interval_usec + 1) * handler->interval_usec;
                  sd_event_source_set_time(src, next);
                  sd_event_source_set_enabled(src, SD_EVENT_ON);
                  handler->fn();
                  return 0;
              },
              h.get()),
          "sd_event_add_time_relative");
    sd_event_source_set_enabled(s, SD_EVENT_ON);
    sources_.emplace_back(s);
    return *h;
}

EventLoop::Alarm& EventLoop::alarm(std::function<void()> handler)
{
    auto& a = alarms_.emplace_back(std::make_unique<AlarmHandler>(std::move(handler)));
    sd_event_source* s = nullptr;
    check(sd_event_add_time(
              event_, &s, CLOCK_MONOTONIC, 0, 1000,
              [](sd_event_source*, uint64_t, void* data) -> int {
                  static_cast<AlarmHandler*>(data)->fn(); // ONESHOT: off before this runs
                  return 0;
              },
              a.get()),
          "sd_event_add_time");
    sd_event_source_set_enabled(s, SD_EVENT_OFF);
    a->source = s;
    sources_.emplace_back(s);
    return *a;
}

void EventLoop::post(std::function<void()> fn)
{
    {
        std::lock_guard lock(posted_mutex_);
        posted_.push_back(std::move(fn));
    }
    uint64_t one = 1;
    [[maybe_unused]] auto n = write(wake_fd_, &one, sizeof one);
}

int EventLoop::onWake(sd_event_source*, int fd, uint32_t, void* self)
{
    uint64_t count = 0;
    [[maybe_unused]] auto n = read(fd, &count, sizeof count);
    auto* loop = static_cast<EventLoop*>(self);
    std::deque<std::function<void()>> work;
    {
        std::lock_guard lock(loop->posted_mutex_);
        work.swap(loop->posted_);
    }
    for (auto& fn : work)
        fn();
    return 0;
}

void EventLoop::enableWatchdog()
{
    sd_event_set_watchdog(event_, 1);
}

int EventLoop::run()
{
    return sd_event_loop(event_);
}

void EventLoop::exit(int code)
{
    sd_event_exit(event_, code);
}

uint64_t EventLoop::nowMonotonicUsec()
{
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<uint64_t>(ts.tv_sec) * 1000000ULL +
           static_cast<uint64_t>(ts.tv_nsec) / 1000ULL;
}

} // namespace nicd::loop
