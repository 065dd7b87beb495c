#include "dbus/bus_service.hpp"

#include "dbus/bus_publisher.hpp"
#include "dbus/sdevent_bridge.hpp"
#include "log/log.hpp"

#include <nicd/client/bus_connection.hpp>
#include <nicd/client/object_path.hpp>

#include <sdbus-c++/IConnection.h>

#include <algorithm>

namespace nicd::dbus {

uint64_t reconnectDelayUsec(uint32_t attempt, uint64_t first_usec, uint64_t max_usec)
{
    uint64_t delay = first_usec;
    for (uint32_t i = 0; i < attempt && delay < max_usec; ++i)
        delay *= 2;
    return std::min(delay, max_usec);
}

BusService::BusService(sd_event* event, Options options, BusHandlers handlers)
    : event_(event), options_(std::move(options)), handlers_(std::move(handlers))
{
}

BusService::~BusService()
{
    publisher_.reset(); // before the connection it uses
    bridge_.reset();
    connection_.reset();
}

void BusService::start()
{
    if (!connection_ && !retry_.get())
        connect();
}

void BusService::connect()
{
    try {
        auto connection = openBus(options_.bus);
        auto bridge = std::make_unique<SdEventBridge>(
            event_, *connection, [this](const std::string& why) { disconnect(why); });
        connection_ = std::move(connection);
        bridge_ = std::move(bridge);
        publisher_ = std::make_unique<BusPublisher>(*connection_, handlers_);
        ++connects_;
    } catch (const std::exception& e) {
        log::warn({}, "D-Bus: cannot connect to the {} bus: {}", options_.bus, e.what());
        publisher_.reset();
        bridge_.reset();
        connection_.reset();
        scheduleRetry();
        return;
    }
    log::info({}, "D-Bus: connected to the {} bus", options_.bus);
    if (options_.republish)
        options_.republish(); // publishes and requests the name, once there is a snapshot
}

void BusService::requestName()
{
    if (owns_name_ || !connection_)
        return;
    try {
        connection_->requestName(kBusName);
        owns_name_ = true;
        attempt_ = 0;
        log::info({}, "D-Bus: serving {} on {}", kBusName, kRootPath);
    } catch (const std::exception& e) {
        // Another nicd owns it, or the bus policy forbids it: try again later.
        disconnect(std::string("cannot own ") + kBusName + ": " + e.what());
    }
}

void BusService::disconnect(const std::string& why)
{
    log::warn({}, "D-Bus: {}; monitoring continues without the bus", why);
    publisher_.reset();
    bridge_.reset();
    connection_.reset();
    owns_name_ = false;
    scheduleRetry();
}

void BusService::scheduleRetry()
{
    uint64_t delay =
        reconnectDelayUsec(attempt_++, options_.first_retry_usec, options_.max_retry_usec);
    uint64_t now = 0;
    sd_event_now(event_, CLOCK_MONOTONIC, &now);
    sd_event_source* s = nullptr;
    int r = sd_event_add_time(event_, &s, CLOCK_MONOTONIC, now + delay, 0, &onRetry, this);
    if (r < 0) {
        log::error({}, "D-Bus: cannot schedule a reconnect: {}", r);
        return;
    }
    retry_ = loop::EventSource(s);
    log::info({}, "D-Bus: reconnecting in {} s", static_cast<double>(delay) / 1e6);
}

int BusService::onRetry(sd_event_source*, uint64_t, void* self)
{
    auto& service = *static_cast<BusService*>(self);
    service.retry_ = loop::EventSource(); // unref while dispatching is safe in sd-event
    service.connect();
    return 0;
}

void BusService::publish(const Snapshot& snap, const BusViews& views)
{
    if (!publisher_)
        return;
    publisher_->publish(treeValuesOf(snap, views, options_.version));
    requestName();
}

} // namespace nicd::dbus
