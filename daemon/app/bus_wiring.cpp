// What the bus's methods do: each is a call into a stage (provisioning, health, the last
// snapshot's counters).
#include "app/daemon_app.hpp"
#include "dbus/bus_errors.hpp"
#include "dbus/bus_handlers.hpp"
#include "dbus/object_values.hpp"
#include "health/health_engine.hpp"
#include "log/log.hpp"
#include "loop/clock.hpp"
#include "provision/provision_scheduler.hpp"

namespace nicd {

dbus::BusHandlers DaemonApp::busHandlers()
{
    dbus::BusHandlers h;
    h.reload = [this] { reload(); };
    h.apply = [this](bool dry_run, dbus::QosReply&& reply) {
        provision_->request(dry_run ? provision::RoundKind::DryRun : provision::RoundKind::Apply,
                            std::move(reply));
    };
    h.verify = [this](dbus::QosReply&& reply) {
        provision_->request(provision::RoundKind::Verify, std::move(reply));
    };
    h.events = [this](uint64_t since) { return health_->eventsSince(since); };
    h.clear_condition = [this](const std::string& device, const std::string& code) {
        return clearCondition(device, code);
    };
    h.counters = [this](const std::string& device, uint32_t port) {
        auto counters = last_ ? dbus::countersOf(*last_, device, port) : std::nullopt;
        if (!counters)
            throw dbus::MethodFailure("NotFound", port == 0
                                                      ? device + " is not in the last cycle"
                                                      : device + " port " + std::to_string(port) +
                                                            " is not in the last cycle");
        return *counters;
    };
    return h;
}

// An operator's clear of a condition that has no natural recovery (kernel lines): the health,
// the textfile, the bus and the state file show it at once.
uint32_t DaemonApp::clearCondition(const std::string& device, const std::string& code)
{
    if (device.empty() || code.empty())
        throw dbus::MethodFailure("InvalidArgument", "a device and a condition code are needed");
    size_t cleared = health_->clear(device, code, realtimeSeconds());
    if (cleared == 0)
        throw dbus::MethodFailure("NotFound",
                                  "no active condition " + code + " on device " + device);
    log::info({.device = device}, "condition {} on {} cleared by an operator", code, device);
    if (last_) {
        health_->report(*last_);
        publish(*last_);
    }
    saveState(true);
    return static_cast<uint32_t>(cleared);
}

} // namespace nicd
