#include "dbus/sdevent_bridge.hpp"

#include "log/log.hpp"

#include <sdbus-c++/Error.h>
#include <sdbus-c++/IConnection.h>

#include <cstring>
#include <stdexcept>

namespace nicd::dbus {

namespace {
void check(int r, const char* what)
{
    if (r < 0)
        throw std::runtime_error(std::string("D-Bus on sd-event: ") + what + ": " +
                                 std::strerror(-r));
}
} // namespace

SdEventBridge::SdEventBridge(sd_event* event, sdbus::IConnection& connection,
                             BrokenHandler on_broken)
    : event_(event), connection_(connection), on_broken_(std::move(on_broken))
{
    auto poll = connection_.getEventLoopPollData();
    fd_ = poll.fd;
    sd_event_source* s = nullptr;
    check(sd_event_add_io(event_, &s, fd_, static_cast<uint32_t>(poll.events), &onIo, this),
          "sd_event_add_io");
    io_ = loop::EventSource(s);
    check(sd_event_source_set_prepare(s, &onPrepare), "sd_event_source_set_prepare");
    check(sd_event_source_set_description(s, "dbus-io"), "sd_event_source_set_description");

    s = nullptr;
    check(sd_event_add_time(event_, &s, CLOCK_MONOTONIC, 0, 0, &onTimer, this),
          "sd_event_add_time");
    timer_ = loop::EventSource(s);
    check(sd_event_source_set_enabled(s, SD_EVENT_OFF), "sd_event_source_set_enabled");
    sd_event_source_set_description(s, "dbus-timer");
}

SdEventBridge::~SdEventBridge() = default;

// Before every poll: sd-bus may have queued messages while sending (the fd then is not readable,
// but the timeout is 0) or want to write, so re-read what it waits for.
int SdEventBridge::onPrepare(sd_event_source*, void* self)
{
    auto& b = *static_cast<SdEventBridge*>(self);
    if (b.broken_)
        return 0;
    try {
        auto poll = b.connection_.getEventLoopPollData();
        if (poll.fd != b.fd_) {
            b.fail("the bus connection changed its file descriptor");
            return 0;
        }
        sd_event_source_set_io_events(b.io_.get(), static_cast<uint32_t>(poll.events));
        if (poll.timeout_usec == UINT64_MAX) {
            sd_event_source_set_enabled(b.timer_.get(), SD_EVENT_OFF);
        } else {
            sd_event_source_set_time(b.timer_.get(), poll.timeout_usec);
            sd_event_source_set_enabled(b.timer_.get(), SD_EVENT_ONESHOT);
        }
    } catch (const std::exception& e) {
        b.fail(e.what());
    }
    return 0;
}

int SdEventBridge::onIo(sd_event_source*, int, uint32_t, void* self)
{
    static_cast<SdEventBridge*>(self)->dispatch();
    return 0;
}

int SdEventBridge::onTimer(sd_event_source*, uint64_t, void* self)
{
    static_cast<SdEventBridge*>(self)->dispatch();
    return 0;
}

void SdEventBridge::dispatch()
{
    if (broken_)
        return;
    try {
        for (int i = 0; i < kBatch && connection_.processPendingRequest(); ++i) {
        }
    } catch (const std::exception& e) {
        fail(e.what());
    }
}

void SdEventBridge::fail(const std::string& why)
{
    if (broken_)
        return;
    broken_ = true;
    why_ = why;
    // Drop the fd's sources now: the fd is (or will be) closed and its number reused by the next
    // connection.
    io_ = loop::EventSource();
    timer_ = loop::EventSource();
    sd_event_source* s = nullptr;
    if (sd_event_add_defer(event_, &s, &onBrokenDeferred, this) >= 0) {
        broken_notice_ = loop::EventSource(s);
        return;
    }
    log::error({}, "D-Bus: cannot report the broken connection ({}): {}", why,
               "sd_event_add_defer");
}

int SdEventBridge::onBrokenDeferred(sd_event_source* s, void* self)
{
    auto& b = *static_cast<SdEventBridge*>(self);
    sd_event_source_set_enabled(s, SD_EVENT_OFF);
    // The handler may destroy this bridge: nothing of it is touched afterwards.
    auto handler = std::move(b.on_broken_);
    std::string why = b.why_;
    if (handler)
        handler(why);
    return 0;
}

} // namespace nicd::dbus
