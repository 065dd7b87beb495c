// nicd on D-Bus, resilient: connects to the bus named by --bus (system, session or an address),
// runs the connection on the sd-event loop (SdEventBridge), publishes each cycle's tree
// (BusPublisher) and owns io.nicd.Nicd1 once the first tree exists. When the bus goes away or
// cannot be reached, it logs it, keeps the last tree, and reconnects with exponential backoff;
// the daemon keeps running meanwhile. Loop thread only.
#pragma once

#include "dbus/bus_handlers.hpp"
#include "dbus/bus_views.hpp"
#include "dbus/object_values.hpp"
#include "loop/event_loop.hpp"
#include "model/snapshot.hpp"

#include <systemd/sd-event.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace sdbus {
class IConnection;
}

namespace nicd::dbus {

class SdEventBridge;
class BusPublisher;

// Delay before reconnect attempt `attempt` (0-based): first, doubled each time, at most max.
uint64_t reconnectDelayUsec(uint32_t attempt, uint64_t first_usec, uint64_t max_usec);

class BusService {
public:
    struct Options {
        std::string bus = "system"; // system | session | a D-Bus address (unix:path=...)
        std::string version;        // Manager.Version
        uint64_t first_retry_usec = 1'000'000;
        uint64_t max_retry_usec = 60'000'000;
        // After a reconnect: publish the last snapshot again (nothing is kept here: the objects
        // hold the values, and they die with the connection).
        std::function<void()> republish;
    };

    BusService(sd_event* event, Options options, BusHandlers handlers);
    ~BusService();
    BusService(const BusService&) = delete;
    BusService& operator=(const BusService&) = delete;

    // Connects now; on failure logs and retries later. Never throws.
    void start();

    // Once per cycle, after health and QoS are judged.
    void publish(const Snapshot& snap, const BusViews& views);

    bool connected() const { return connection_ != nullptr; }
    uint64_t connects() const { return connects_; } // successful connections so far

private:
    void connect();
    void disconnect(const std::string& why);
    void scheduleRetry();
    void requestName();
    static int onRetry(sd_event_source*, uint64_t, void* self);

    sd_event* event_;
    Options options_;
    BusHandlers handlers_;
    std::unique_ptr<sdbus::IConnection> connection_;
    std::unique_ptr<SdEventBridge> bridge_;
    std::unique_ptr<BusPublisher> publisher_;
    loop::EventSource retry_;
    uint32_t attempt_ = 0;
    bool owns_name_ = false;
    uint64_t connects_ = 0;
};

} // namespace nicd::dbus
