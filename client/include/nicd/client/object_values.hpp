// What nicd's D-Bus objects show (DESIGN.md §7), as plain data: the properties of the Manager,
// Device, Port and Plugin objects and the rows of their array properties, and the rows of the
// Manager's answers (events; QoS results of Apply and Verify). nicd fills them from a snapshot
// (daemon/dbus/object_values.hpp); nicctl reads them back from the bus (wire_values.hpp). Pure.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace nicd::dbus {

// One active condition. On a Device or Port object `device` is left out of the wire (it is the
// object's); Manager.Conditions has it ("" for the node itself).
struct ConditionRow {
    std::string device;
    std::string code;
    std::string severity; // info, degraded, fatal
    uint32_t port = 0;    // 0 = the device itself
    std::string source;   // link, counter, kernel, driver, device
    std::string message;
    std::string advice; // what to do, in words
    uint64_t since_usec = 0;
    std::string action; // the same, from the fixed set: check_cable, reset_nic, ...
    bool operator==(const ConditionRow&) const = default;
};

// One readiness check of a port (io.nicd.Nicd1.Port ReadyChecks).
struct ReadyCheckRow {
    std::string check;   // gid, mtu, uverbs, umad, gpudirect, acs, numa
    std::string verdict; // ok, failed, unknown, skipped
    std::string saw;
    bool operator==(const ReadyCheckRow&) const = default;
};

// One plane of a multi-plane port (io.nicd.Nicd1.Port Planes): a port of its SMI sub-device.
struct PlaneRow {
    uint32_t plane = 0;     // the SMI device's port number
    std::string smi_device; // "smi0"
    std::string state;      // as the kernel prints it: the port's own, the same on every plane
    std::string rate;       // the plane's own: "200 Gb/sec (1X XDR)"
    bool operator==(const PlaneRow&) const = default;
};

// The LLDP neighbour heard on a port (io.nicd.Nicd1.Port Neighbors): the switch port its cable
// reaches, as lldpd hears it.
struct NeighborRow {
    std::string switch_name;  // its system name, else its chassis ID: "leaf-07"
    std::string switch_port;  // its port as people name it: "swp12"
    std::string chassis_id;   // "0c:42:a1:00:07:00"
    std::string port_id;      // as sent: "swp12", or a MAC
    std::string mgmt_address; // empty when none
    uint32_t ttl = 0;         // seconds
    bool operator==(const NeighborRow&) const = default;
};

// io.nicd.Nicd1.Device PcieLink: GT/s per lane and width; 0 = unknown.
struct PcieLinkRow {
    double current_gts = 0;
    uint32_t current_width = 0;
    double capable_gts = 0; // the most the link can train: the lower of the NIC's and the bridge's
    uint32_t capable_width = 0;
    bool operator==(const PcieLinkRow&) const = default;
};

// One devlink health reporter of a device (io.nicd.Nicd1.Device HealthReporters).
struct ReporterRow {
    std::string handle;
    std::string name;
    std::string state;
    uint64_t errors = 0;
    uint64_t recovers = 0;
    bool operator==(const ReporterRow&) const = default;
};

// One uplink netdev of a port and its pre-failure signals (io.nicd.Nicd1.Port Uplinks).
struct UplinkRow {
    std::string netdev;
    std::string fec_mode; // empty: not read
    std::string module;   // "sff-8636", "cmis", "sff-8472", "no-diagnostics"; empty: not read
    std::map<std::string, double> values; // fec_pre_ber, lane1_rx_power_watts, ...
    bool operator==(const UplinkRow&) const = default;
};

// A device's pre-failure signals (Temperatures, TemperatureLimits, PcieLink, HealthReporters).
// What the kernel or the module did not give is left out, never shown as 0.
struct DeviceSignals {
    std::map<std::string, double> temperatures; // hwmon sensor label -> celsius
    std::map<std::string, double> temperature_limits;
    PcieLinkRow pcie;
    std::vector<ReporterRow> reporters;
    bool operator==(const DeviceSignals&) const = default;
};

struct ManagerValues {
    std::string version;
    std::string health;      // the worst of anything: healthy, degraded, fatal, unknown
    std::string node_health; // the node verdict (compute devices decide fatal)
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
    uint64_t last_reload_usec = 0;  // 0: no reload since start
    std::string last_reload_result; // "", "ok" or "failed: ..."
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
    std::string congestion; // idle, ecn_working, pfc_only, pause_storm, lossy, unknown; "" none
    std::vector<UplinkRow> uplinks;
    std::string ready; // yes, no; empty when not judged
    std::vector<ReadyCheckRow> ready_checks;
    std::vector<PlaneRow> planes{};       // a multi-plane port's; empty for any other
    std::vector<NeighborRow> neighbors{}; // what lldpd hears on it; empty without lldpd
    // What the one neighbour advertises for the QoS settings ("pfc" -> "3,4"): SwitchQos.
    std::map<std::string, std::string> switch_qos{};
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

// One Event signal, or one row of GetEvents' answer.
struct EventRow {
    uint64_t seq = 0;
    uint64_t time_usec = 0;
    std::string kind;     // raised, recovered, cleared, baseline
    std::string severity; // info, degraded, fatal
    std::string device;
    uint32_t port = 0;
    std::string code;
    std::string message;
    std::string action; // the condition's action when raised ("none" otherwise)
    bool operator==(const EventRow&) const = default;
};

// One row of Apply's and Verify's answer: one setting on one port.
struct QosResultRow {
    std::string device;
    uint32_t port = 0;
    std::string setting; // "trust", "pfc", "ecn_np", "ecn_rp", "roce_tos", ...
    std::string desired;
    std::string observed;
    bool compliant = false;
    bool changed = false; // written by this call (or would be, for a dry run)
    std::string error;    // empty when none
    bool operator==(const QosResultRow&) const = default;
};

// What a plugin reads for a setting its NIC gives nicd no interface for (bnxt's ECN): a result
// of its own, never compliant (compliant is false on the bus) and never noncompliant.
inline constexpr std::string_view kQosUnsupported = "unsupported";

// "compliant", "noncompliant" or "unsupported".
inline std::string_view qosResultOf(const QosResultRow& r)
{
    if (r.observed == kQosUnsupported)
        return kQosUnsupported;
    return r.compliant ? "compliant" : "noncompliant";
}

} // namespace nicd::dbus
