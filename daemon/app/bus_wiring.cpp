// What the bus's methods do: each is a call into a stage (provisioning, health, the last
// snapshot's counters).
#include "app/daemon_app.hpp"
#include "collect/cycle_scheduler.hpp"
#include "config/config_in_effect.hpp"
#include "dbus/bus_errors.hpp"
#include "dbus/bus_handlers.hpp"
#include "dbus/object_values.hpp"
#include "health/device_identity.hpp"
#include "health/health_engine.hpp"
#include "log/log.hpp"
#include "loop/clock.hpp"
#include "provision/provision_scheduler.hpp"
#include "text/printable.hpp"

#include <algorithm>

namespace nicd::app {

dbus::BusHandlers DaemonApp::busHandlers()
{
    dbus::BusHandlers h;
    h.reload = [this] { reload(); };
    h.apply = [this](bool dry_run, dbus::QosReply&& reply) {
        provision_->request(dry_run ? provision::RoundKind::DryRun : provision::RoundKind::Apply,
                            provision::RoundReply(std::move(reply)));
    };
    h.verify = [this](dbus::QosReply&& reply) {
        provision_->request(provision::RoundKind::Verify, provision::RoundReply(std::move(reply)));
    };
    h.events = [this](uint64_t since) { return health_->eventsSince(since); };
    h.clear_condition = [this](const std::string& device, const std::string& code) {
        return clearCondition(device, code);
    };
    h.forget_device = [this](const std::string& device) {
        auto forgotten = forgetDevices(device);
        if (forgotten.empty())
            throw dbus::MethodFailure("NotFound", "nicd remembers no absent device " + device +
                                                      " (nicctl status lists what is missing)");
        return forgotten.front().pci_address;
    };
    h.accept_inventory = [this] {
        std::vector<std::string> names;
        for (const auto& k : forgetDevices(""))
            names.push_back(k.name);
        return names;
    };
    h.counters = [this](const std::string& device, uint32_t port) {
        const auto& last = published_.get();
        auto counters = last ? dbus::countersOf(*last, device, port) : std::nullopt;
        if (!counters)
            throw dbus::MethodFailure("NotFound", port == 0
                                                      ? device + " is not in the last cycle"
                                                      : device + " port " + std::to_string(port) +
                                                            " is not in the last cycle");
        return *counters;
    };
    h.port_counters = [this](const std::string& device, uint32_t port,
                             dbus::CountersReply&& reply) {
        const auto& last = published_.get();
        if (counter_requests_.ask(last ? &*last : nullptr, device, port, std::move(reply),
                                  loop::EventLoop::nowMonotonicUsec()) &&
            cycles_)
            cycles_->requestNow();
    };
    h.configuration = [this] {
        std::vector<std::array<std::string, 4>> rows;
        for (auto& s :
             config::settingsInEffect(config_, config::shippedDefaults(config::shippedNicdConf())))
            rows.push_back(
                {std::move(s.section), std::move(s.key), std::move(s.value), std::move(s.source)});
        return rows;
    };
    h.log_level = [] { return log::levelName(); };
    h.set_log_level = [](const std::string& level) {
        const auto before = log::levelName();
        if (!log::setLevel(level))
            throw dbus::MethodFailure("InvalidArgument",
                                      "log level '" + printable(level.substr(0, 32)) +
                                          "': expected trace, debug, info, warn or error");
        // Said at warn, so that it shows whatever the levels are.
        log::warn({}, "log level {} (was {}), set over D-Bus until nicd restarts", level, before);
    };
    return h;
}

// An operator's clear of a condition that has no natural recovery (kernel lines): the health,
// the textfile, the bus and the state file show it at once.
uint32_t DaemonApp::clearCondition(const std::string& device, const std::string& code)
{
    if (device.empty() || code.empty())
        throw dbus::MethodFailure("InvalidArgument", "a device and a condition code are needed");
    size_t cleared = health_->clear(device, code, loop::realtimeSeconds());
    if (cleared == 0)
        throw dbus::MethodFailure("NotFound",
                                  "no active condition " + code + " on device " + device);
    log::info({.device = device}, "condition {} on {} cleared by an operator", code, device);
    published_.amend([](Snapshot&) {}, loop::PublishedSnapshot::Judge::Report,
                     loop::PublishedSnapshot::Publish::Now);
    saveState(true);
    return static_cast<uint32_t>(cleared);
}

// A NIC taken out on purpose: what nicd remembered of it goes, with its device_missing, and the
// health, the textfile, the bus and the state file show it at once.
std::vector<health::KnownDevice> DaemonApp::forgetDevices(const std::string& device)
{
    if (!published_.get())
        throw dbus::MethodFailure("Busy", "nicd has not finished its first cycle yet");
    const auto& inv = published_.get()->inventory;
    if (!device.empty() && (inv.find(device) != nullptr ||
                            std::any_of(inv.devices.begin(), inv.devices.end(),
                                        [&](const Device& d) { return d.pci_address == device; })))
        throw dbus::MethodFailure("InvalidArgument",
                                  device + " is present: only a device that is gone can be "
                                           "forgotten");
    auto forgotten = health_->forgetMissing(device, inv, loop::realtimeSeconds());
    for (const auto& k : forgotten)
        log::info({.device = k.name}, "{}{} forgotten by an operator: it is not expected back",
                  k.name, k.pci_address.empty() ? "" : " (PCI " + k.pci_address + ")");
    if (!forgotten.empty()) {
        published_.amend([](Snapshot&) {}, loop::PublishedSnapshot::Judge::Report,
                         loop::PublishedSnapshot::Publish::Now);
        saveState(true);
    }
    return forgotten;
}

} // namespace nicd::app
