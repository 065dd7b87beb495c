// The values every nicd D-Bus object shows (nicd_client's object_values.hpp), computed from one
// Snapshot (plus BusViews), and the comparison that says which properties changed between two
// cycles. Pure: no bus.
#pragma once

#include "dbus/bus_views.hpp"
#include "dbus/prefailure_values.hpp"
#include "model/snapshot.hpp"

#include <nicd/client/object_values.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nicd::dbus {

// Everything on the bus, by object path.
struct TreeValues {
    ManagerValues manager;
    std::map<std::string, DeviceValues> devices;
    std::map<std::string, PortValues> ports;
    std::map<std::string, PluginValues> plugins;
};

// Seconds (a timestamp or a duration) as the bus's microseconds; 0 for none (0 or negative).
uint64_t usecOf(double seconds);

TreeValues treeValuesOf(const Snapshot& snap, const BusViews& views, std::string_view version);

// What GetCounters answers, made when asked rather than every cycle: "<source>.<name>" -> value
// for a device's port (port 0: the device's own counters); nullopt when the snapshot has no such
// device or port.
std::optional<std::map<std::string, uint64_t>> countersOf(const Snapshot& snap,
                                                          const std::string& device, uint32_t port);

// Names of the properties that changed and signal it (never the const or non-signalling ones).
std::vector<std::string> changedProperties(const ManagerValues& before, const ManagerValues& now);
std::vector<std::string> changedProperties(const DeviceValues& before, const DeviceValues& now);
std::vector<std::string> changedProperties(const PortValues& before, const PortValues& now);
std::vector<std::string> changedProperties(const PluginValues& before, const PluginValues& now);

// True when a property marked const changed: the object must be removed and added again.
bool identityChanged(const DeviceValues& before, const DeviceValues& now);
bool identityChanged(const PortValues& before, const PortValues& now);
bool identityChanged(const PluginValues& before, const PluginValues& now);

} // namespace nicd::dbus
