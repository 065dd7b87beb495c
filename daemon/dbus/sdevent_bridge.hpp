// Runs an sdbus-c++ 1.2 connection on an sd-event loop (1.2 has no attachSdEventLoop): an IO
// source on the bus fd, a CLOCK_MONOTONIC timer for sd-bus's own deadline, and a prepare callback
// that refreshes both from getEventLoopPollData() before every poll. Messages are processed with
// processPendingRequest() in bounded batches. Everything happens on the loop thread.
//
// When the connection breaks (the bus went away), the sources are dropped at once and
// `on_broken(why)` is called from a deferred event: the owner may destroy the bridge and the
// connection inside it.
#pragma once

#include "loop/event_loop.hpp"

#include <systemd/sd-event.h>

#include <functional>
#include <string>

namespace sdbus {
class IConnection;
}

namespace nicd::dbus {

class SdEventBridge {
public:
    using BrokenHandler = std::function<void(const std::string& why)>;

    // Throws std::runtime_error when the sources cannot be created.
    SdEventBridge(sd_event* event, sdbus::IConnection& connection, BrokenHandler on_broken);
    ~SdEventBridge();
    SdEventBridge(const SdEventBridge&) = delete;
    SdEventBridge& operator=(const SdEventBridge&) = delete;

    bool broken() const { return broken_; }

    // Most messages handled per wake-up, so the bus cannot starve the other sources.
    static constexpr int kBatch = 64;

private:
    static int onPrepare(sd_event_source*, void* self);
    static int onIo(sd_event_source*, int fd, uint32_t revents, void* self);
    static int onTimer(sd_event_source*, uint64_t usec, void* self);
    static int onBrokenDeferred(sd_event_source*, void* self);
    void dispatch();
    void fail(const std::string& why);

    sd_event* event_;
    sdbus::IConnection& connection_;
    BrokenHandler on_broken_;
    loop::EventSource io_;
    loop::EventSource timer_;
    loop::EventSource broken_notice_;
    int fd_ = -1;
    bool broken_ = false;
    std::string why_;
};

} // namespace nicd::dbus
