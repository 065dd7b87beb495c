// Pre-failure signals as the NIC reports them: FEC statistics, the optical module's diagnostics
// (DOM), temperature sensors, firmware health reporters and PCIe link training. Plain values in
// SI units; what the kernel or the module did not give is absent (never 0).
#pragma once

#include <nicd/plugin/plugin.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace nicd {

// A physical port's uplink netdev, where FEC statistics and the module EEPROM are read
// (prefailure/uplinks.hpp). A RoCE LAG's members are uplinks of the LAG device's port.
struct Uplink {
    std::string ibdev;
    uint32_t port = 0;
    std::string netdev;
    std::string link_layer;          // "Ethernet" or "InfiniBand"
    std::optional<double> rate_gbps; // the port's rate
    std::optional<int> lanes;        // the port's width ("4X" in "400 Gb/sec (4X NDR)")
    bool active = false;             // the port is ACTIVE

    bool operator==(const Uplink&) const = default;
};

// ---- FEC (ethtool netlink ETHTOOL_MSG_FEC_GET, or `ethtool --json -I --show-fec`) ----

// One FEC statistic: the total and, when the driver gives them, per-lane values.
struct FecCounter {
    uint64_t total = 0;
    std::vector<uint64_t> lanes;

    bool operator==(const FecCounter&) const = default;
};

struct FecStats {
    std::string netdev;
    // The active FEC mode as ethtool names it: "RS", "BaseR", "LLRS", "None"/"Off"; empty when
    // the kernel did not say (no link).
    std::string active;
    std::optional<FecCounter> corrected_blocks;
    std::optional<FecCounter> uncorrectable_blocks;
    std::optional<FecCounter> corrected_bits;
    double read_at = 0; // CLOCK_MONOTONIC seconds of the read (set by the reader, not decoders)

    bool operator==(const FecStats&) const = default;
};

// ---- Module EEPROM diagnostics (SFF-8472, SFF-8636, CMIS) ----

enum class ModuleStandard : uint8_t { Unknown, Sff8472, Sff8636, Cmis };

// "sff-8472", "sff-8636", "cmis", "unknown": as metrics and D-Bus name them.
const char* toString(ModuleStandard s);

// The module's own limits for one quantity, in the quantity's unit.
struct DomThresholds {
    std::optional<double> high_alarm;
    std::optional<double> low_alarm;
    std::optional<double> high_warning;
    std::optional<double> low_warning;

    bool operator==(const DomThresholds&) const = default;
};

struct ModuleLane {
    std::optional<double> tx_bias_amperes;
    std::optional<double> tx_power_watts;
    std::optional<double> rx_power_watts;
    bool tx_fault = false; // the module's TX fault flag for this lane
    bool rx_los = false;   // loss of signal on receive

    bool operator==(const ModuleLane&) const = default;
};

struct ModuleDom {
    uint8_t identifier = 0; // SFF-8024 byte 0: 0x11 QSFP28, 0x18 QSFP-DD, 0x19 OSFP, ...
    ModuleStandard standard = ModuleStandard::Unknown;
    // False for modules without diagnostics (copper DACs, an unknown identifier): no values, no
    // thresholds, and nothing to judge.
    bool has_dom = false;
    std::optional<double> temperature_celsius;
    std::optional<double> supply_volts;
    std::vector<ModuleLane> lanes; // lane 1 first
    DomThresholds temperature;     // celsius
    DomThresholds supply;          // volts
    DomThresholds tx_bias;         // amperes
    DomThresholds tx_power;        // watts
    DomThresholds rx_power;        // watts

    bool operator==(const ModuleDom&) const = default;
};

// ---- hwmon temperature sensors of a PCI function (mlx5: "asic", "Module0", "sensor<N>") ----

struct TemperatureSensor {
    std::string label; // tempN_label, or "tempN" without one
    double celsius = 0;
    std::optional<double> crit_celsius;
    std::optional<double> highest_celsius;

    bool operator==(const TemperatureSensor&) const = default;
};

// ---- devlink health reporters (`devlink -j health show`, DEVLINK_CMD_HEALTH_REPORTER_GET) ----

struct HealthReporter {
    std::string handle; // "pci/0000:08:00.0" (device) or "pci/0000:08:00.0/65535" (port)
    std::string name;   // "fw", "fw_fatal", "tx", "rx", "vnic", ...
    bool healthy = true;
    std::string state; // "healthy", "error", or what else the source said
    uint64_t errors = 0;
    uint64_t recovers = 0;

    bool operator==(const HealthReporter&) const = default;
};

// What a reporter in error means, as the plugin of the reporter's device says (plugin ABI 1.6,
// PluginTraits::reporters): by plugin name, then reporter name. Made once when the plugins load.
using ReporterMeaning = plugin::v1::ReporterMeaning;
using ReporterMeanings = std::map<std::string, std::map<std::string, ReporterMeaning>, std::less<>>;

// ---- PCIe link training of a device's function (sysfs current/max_link_speed/width) ----

struct PcieHop;

struct PcieLink {
    std::optional<double> current_gts; // GT/s per lane
    std::optional<int> current_width;
    std::optional<double> max_gts; // the function's own capability
    std::optional<int> max_width;
    // The lowest capability of the ports above it (a bridge may allow less than the NIC): the
    // link can train no higher than min(max, upstream).
    std::optional<double> upstream_max_gts;
    std::optional<int> upstream_max_width;
    // The links above this one up to the root port, nearest first (a PCIe switch's link to the
    // port above it): each limits every device below it. Empty without a switch on the way.
    std::vector<PcieHop> path;

    bool operator==(const PcieLink&) const = default;
};

// One link on a function's way to its root port, between the port above and the switch below it.
struct PcieHop {
    std::string upstream;   // PCI address of the port above: a root port or a switch's downstream
    std::string downstream; // PCI address of the switch's upstream port below it
    PcieLink link;          // as the port below reports it, with the port above's capability

    bool operator==(const PcieHop&) const = default;
};

} // namespace nicd
