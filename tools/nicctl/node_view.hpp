// What nicctl knows of the node: the objects of one GetManagedObjects call as plain data. Pure:
// a property that is missing or of another type reads as empty, never as an error (a newer or
// older nicd may differ).
#pragma once

#include <sdbus-c++/Types.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace nicctl {

using ManagedObjects =
    std::map<sdbus::ObjectPath, std::map<std::string, std::map<std::string, sdbus::Variant>>>;

struct ConditionView {
    std::string code;
    std::string severity; // info, degraded, fatal
    uint32_t port = 0;    // 0 = the device itself
    std::string source;
    std::string message;
    std::string advice; // what to do, in words
    uint64_t since_usec = 0;
    std::string action; // the same from the fixed set: check_cable, reset_nic, ...
};

// One uplink netdev of a port and its pre-failure signals (io.nicd.Nicd1.Port Uplinks).
struct UplinkView {
    std::string netdev;
    std::string fec_mode; // empty: not read
    std::string module;   // sff-8636, cmis, sff-8472, no-diagnostics; empty: not read
    std::map<std::string, double> values; // fec_pre_ber, lane1_rx_power_watts, ...
};

struct ReporterView {
    std::string handle;
    std::string name;
    std::string state;
    uint64_t errors = 0;
    uint64_t recovers = 0;
};

// GT/s per lane and width; 0 = unknown. "capable": the most the link can train.
struct PcieView {
    double current_gts = 0;
    uint32_t current_width = 0;
    double capable_gts = 0;
    uint32_t capable_width = 0;
};

// One readiness check of a port (io.nicd.Nicd1.Port ReadyChecks).
struct ReadyCheckView {
    std::string check;   // gid, mtu, uverbs, gpudirect, acs, numa
    std::string verdict; // ok, failed, unknown, skipped
    std::string saw;
};

struct PortView {
    uint32_t number = 0;
    std::string state;
    std::string phys_state;
    std::string link_layer;
    std::string rate;
    std::string netdev;
    std::string operstate;
    std::string health;
    std::vector<ConditionView> conditions;
    std::string qos_status;
    std::map<std::string, std::string> qos_desired;
    std::map<std::string, std::string> qos_observed;
    std::map<std::string, bool> qos_compliant;
    std::string congestion; // idle, ecn_working, pfc_only, pause_storm, lossy, unknown; "" none
    std::vector<UplinkView> uplinks;
    std::string ready; // yes, no; "" when the port is not judged
    std::vector<ReadyCheckView> ready_checks;
};

struct DeviceView {
    std::string name;
    std::string pci_address;
    std::string driver;
    std::string plugin;
    std::string firmware;
    std::string role;     // compute, storage, management
    std::string function; // pf, vf, lag, bond-member
    std::vector<std::string> netdevs;
    std::string health;
    std::vector<ConditionView> conditions;      // the device's and its ports'
    std::vector<PortView> ports;                // by number
    std::map<std::string, double> temperatures; // hwmon sensor label -> celsius
    std::map<std::string, double> temperature_limits;
    PcieView pcie;
    std::vector<ReporterView> reporters;
};

struct PluginView {
    std::string name;
    std::string version;
    std::string state;
    std::string last_error;
};

// A condition of the node itself (device "": inventory_short.compute) or of a device that has no
// object (device_missing of a NIC that is gone), from Manager.Conditions.
struct NodeConditionView {
    std::string device; // "" for the node
    ConditionView condition;
};

struct NodeView {
    std::string version;
    std::string health;      // the worst of anything: healthy, degraded, fatal, unknown
    std::string node_health; // the node verdict (compute devices decide fatal)
    std::string provision_mode;
    uint64_t last_cycle_usec = 0;
    std::vector<DeviceView> devices;                // by name
    std::vector<PluginView> plugins;                // by name
    std::vector<NodeConditionView> node_conditions; // the node's and gone devices' (addNode...)
};

NodeView nodeViewOf(const ManagedObjects& objects);

// Manager.Conditions rows: (device, code, severity, port, source, message, advice, since_usec,
// action).
using NodeConditionWire =
    sdbus::Struct<std::string, std::string, std::string, uint32_t, std::string, std::string,
                  std::string, uint64_t, std::string>;
// Keeps of `rows` those of the node itself and of devices `node` has no object for.
void addNodeConditions(NodeView& node, const std::vector<NodeConditionWire>& rows);

// 0 healthy, 1 degraded, 2 fatal; "unknown" counts as degraded (nothing judged yet).
int healthExitCode(const std::string& health);

} // namespace nicctl
