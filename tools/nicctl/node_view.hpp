// What nicctl knows of the node: the objects of one GetManagedObjects call as plain data, in the
// value types nicd publishes them from (nicd_client's object_values.hpp). Pure: a property that
// is missing or of another type reads as empty, never as an error (a newer or older nicd may
// differ).
#pragma once

#include <nicd/client/object_values.hpp>
#include <nicd/client/wire_values.hpp>

#include <sdbus-c++/Types.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace nicctl {

using ManagedObjects =
    std::map<sdbus::ObjectPath, std::map<std::string, std::map<std::string, sdbus::Variant>>>;

// nicd's values, as nicd publishes them (nicd_client).
namespace bus = nicd::dbus;

// A device as nicctl shows it: its object's properties (`conditions`: the device's and its
// ports'), and its ports' objects by number.
struct DeviceView : bus::DeviceValues {
    std::vector<bus::PortValues> ports;
};

struct NodeView {
    std::string version;
    std::string health;      // the worst of anything: healthy, degraded, fatal, unknown
    std::string node_health; // the node verdict (compute devices decide fatal)
    std::string provision_mode;
    uint64_t last_cycle_usec = 0;
    uint64_t last_reload_usec = 0;          // 0: no reload since nicd started
    std::string last_reload_result;         // "ok" or "failed: ...
    std::vector<DeviceView> devices;        // by name
    std::vector<bus::PluginValues> plugins; // by name
    // Conditions of the node itself (device "": inventory_short.compute) and of devices that
    // have no object (device_missing of a NIC that is gone), from Manager.Conditions.
    std::vector<bus::ConditionRow> node_conditions;
};

NodeView nodeViewOf(const ManagedObjects& objects);

// Keeps of Manager.Conditions' `rows` those of the node itself and of devices `node` has no
// object for.
void addNodeConditions(NodeView& node, const std::vector<bus::NodeConditionWire>& rows);

// 0 healthy, 1 degraded, 2 fatal; "unknown" counts as degraded (nothing judged yet).
int healthExitCode(const std::string& health);

} // namespace nicctl
