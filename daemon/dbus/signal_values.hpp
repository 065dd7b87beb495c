// The pre-failure signals as the D-Bus objects show them (io.nicd.Nicd1.Device Temperatures,
// TemperatureLimits, PcieLink, HealthReporters; io.nicd.Nicd1.Port Uplinks), from one Snapshot.
// Pure: no bus. What the kernel or the module did not give is left out, never shown as 0.
#pragma once

#include "model/snapshot.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace nicd::dbus {

struct PcieLinkRow {
    double current_gts = 0;
    uint32_t current_width = 0;
    double capable_gts = 0; // the lower of the NIC's max and the bridge's above it
    uint32_t capable_width = 0;
    bool operator==(const PcieLinkRow&) const = default;
};

struct ReporterRow {
    std::string handle;
    std::string name;
    std::string state;
    uint64_t errors = 0;
    uint64_t recovers = 0;
    bool operator==(const ReporterRow&) const = default;
};

struct UplinkRow {
    std::string netdev;
    std::string fec_mode; // empty: not read
    std::string module;   // "sff-8636", "cmis", "sff-8472", "no-diagnostics"; empty: not read
    std::map<std::string, double> values;
    bool operator==(const UplinkRow&) const = default;
};

struct DeviceSignals {
    std::map<std::string, double> temperatures; // label -> celsius
    std::map<std::string, double> temperature_limits;
    PcieLinkRow pcie;
    std::vector<ReporterRow> reporters;
    bool operator==(const DeviceSignals&) const = default;
};

// The reporters of each PCI function (the devlink handle's address), made once per snapshot.
using ReportersByPci = std::unordered_multimap<std::string_view, const HealthReporter*>;
ReportersByPci reportersByPci(const Snapshot& snap);
DeviceSignals deviceSignalsOf(const Device& d, const Snapshot& snap,
                              const ReportersByPci& reporters);

// One row per uplink netdev of the port, in the order the uplinks were found.
std::vector<UplinkRow> uplinkRowsOf(const std::string& ibdev, uint32_t port, const Snapshot& snap);

} // namespace nicd::dbus
