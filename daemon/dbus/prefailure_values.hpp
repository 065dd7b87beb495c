// The pre-failure signals as the D-Bus objects show them (io.nicd.Nicd1.Device Temperatures,
// TemperatureLimits, PcieLink, HealthReporters; io.nicd.Nicd1.Port Uplinks: nicd_client's
// DeviceSignals and UplinkRow), from one Snapshot. Pure: no bus. What the kernel or the module
// did not give is left out, never shown as 0.
#pragma once

#include "model/snapshot.hpp"

#include <nicd/client/object_values.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace nicd::dbus {

// The reporters of each PCI function (the devlink handle's address), made once per snapshot.
using ReportersByPci = std::unordered_multimap<std::string_view, const HealthReporter*>;
ReportersByPci reportersByPci(const Snapshot& snap);
DeviceSignals deviceSignalsOf(const Device& d, const Snapshot& snap,
                              const ReportersByPci& reporters);

// One row per uplink netdev of the port, in the order the uplinks were found.
std::vector<UplinkRow> uplinkRowsOf(const std::string& ibdev, uint32_t port, const Snapshot& snap);

} // namespace nicd::dbus
