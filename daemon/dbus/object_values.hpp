// The values every nicd D-Bus object shows, computed from one Snapshot (plus BusViews) as plain
// data, and the comparison that says which properties changed between two cycles. Pure: no bus.
#pragma once

#include "dbus/bus_views.hpp"
#include "dbus/signal_values.hpp"
#include "model/snapshot.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nicd::dbus {

struct ConditionRow {
    std::string device;
    std::string code;
    std::string severity; // info, degraded, fatal
    uint32_t port = 0;    // 0 = the device itself
    std::string source;   // link, counter, kernel, driver, device
    std::string message;
    std::string advice; // what to do, in words
    uint64_t since_usec = 0;
    std::string action; // the same, from the fixed set (model/action.hpp)
    bool operator==(const ConditionRow&) const = default;
};

// One readiness check of a port (health/readiness_checks.hpp).
struct ReadyCheckRow {
    std::string check;
    std::string verdict; // ok, failed, unknown, skipped
    std::string saw;
    bool operator==(const ReadyCheckRow&) const = default;
};

struct ManagerValues {
    std::string version;
    std::string health;
    std::string node_health;
    uint32_t device_count = 0;
    uint32_t port_count = 0;
    uint32_t plugin_count = 0;
    uint32_t condition_count = 0;
    std::vector<ConditionRow> conditions; // every active condition, vanished devices included
    uint64_t last_event_seq = 0;
    uint64_t cycle = 0;           // no change signal
    uint64_t last_cycle_usec = 0; // no change signal
    std::string provision_mode;
    uint64_t last_apply_usec = 0;
    std::string last_apply_result;
};

struct DeviceValues {
    std::string name;        // const
    std::string pci_address; // const
    std::string driver;
    std::string plugin;
    std::string firmware;
    std::string board_id;
    std::string hca_type;
    std::string node_guid;
    int32_t numa_node = -1;
    std::string role; // compute, storage, management
    std::string role_reason;
    std::string function; // pf, vf, lag, bond-member
    std::string bond_master;
    std::vector<std::string> netdevs;
    std::string health;
    std::vector<ConditionRow> conditions;
    DeviceSignals signals;
};

struct PortValues {
    std::string device;  // const
    uint32_t number = 0; // const
    std::string state;
    std::string phys_state;
    std::string link_layer;
    std::string rate;
    std::string netdev;
    std::string operstate;
    std::string health;
    std::vector<ConditionRow> conditions;
    std::string qos_status;
    std::map<std::string, std::string> qos_desired;
    std::map<std::string, std::string> qos_observed;
    std::map<std::string, bool> qos_compliant;
    std::string congestion; // the verdict's state; empty when the port is not judged
    std::vector<UplinkRow> uplinks;
    std::string ready; // yes, no; empty when not judged
    std::vector<ReadyCheckRow> ready_checks;
};

struct PluginValues {
    std::string name; // const
    std::string file;
    std::string version;
    std::string abi_version;
    std::string state;
    std::string last_error;
    uint64_t consecutive_failures = 0;
    uint32_t device_count = 0;
};

// Everything on the bus, by object path.
struct TreeValues {
    ManagerValues manager;
    std::map<std::string, DeviceValues> devices;
    std::map<std::string, PortValues> ports;
    std::map<std::string, PluginValues> plugins;
};

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
