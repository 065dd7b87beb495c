// What the daemon provides to answer nicd's D-Bus methods. Every handler is called on the loop
// thread; an exception thrown from one reaches the caller as io.nicd.Nicd1.Error.<Kind>
// (MethodFailure picks the kind, anything else is Internal). A handler left empty answers
// io.nicd.Nicd1.Error.NotSupported.
#pragma once

#include "dbus/qos_reply.hpp"
#include "model/health.hpp"

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace nicd::dbus {

struct BusHandlers {
    // Manager.Apply(dry_run) / Manager.Verify(): answer later, on the loop thread, through the
    // reply (QosReply::succeed or fail); the call stays open until then. Move the reply out to
    // keep it; when the handler throws without having taken it, the caller gets the error.
    std::function<void(bool dry_run, QosReply&& reply)> apply;
    std::function<void(QosReply&& reply)> verify;
    // Manager.Reload(): re-read the configuration.
    std::function<void()> reload;
    // Manager.GetEvents(since_seq), and the source of the Event signals: events with seq > since,
    // oldest first.
    std::function<std::vector<Event>(uint64_t since_seq)> events;
    // Manager.ClearCondition(device, code): how many conditions were cleared.
    std::function<uint32_t(const std::string& device, const std::string& code)> clear_condition;
    // Manager.ForgetDevice(device): the PCI address forgotten. Manager.AcceptInventory(): the
    // names forgotten.
    std::function<std::string(const std::string& device)> forget_device;
    std::function<std::vector<std::string>()> accept_inventory;
    // Device.GetCounters() (port 0): "<source>.<name>" -> value as of the last published cycle.
    std::function<std::map<std::string, uint64_t>(const std::string& device, uint32_t port)>
        counters;
    // Port.GetCounters(): every statistic of the port, answered through the reply (at once, or
    // after the cycle that reads them all), as apply and verify are.
    std::function<void(const std::string& device, uint32_t port, CountersReply&& reply)>
        port_counters;
    // Manager.GetConfiguration(): (section, key, value, source) rows.
    std::function<std::vector<std::array<std::string, 4>>()> configuration;
    // Manager.LogLevel: the level logged now, and setting it (root's; a level that is not
    // trace, debug, info, warn or error throws MethodFailure InvalidArgument).
    std::function<std::string()> log_level;
    std::function<void(const std::string& level)> set_log_level;
};

} // namespace nicd::dbus
