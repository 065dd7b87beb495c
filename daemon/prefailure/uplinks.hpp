// The physical ports the link-level pre-failure signals are read on: FEC statistics and module
// EEPROMs belong to a port's uplink netdev on its physical function, never to a VF (which shares
// the PF's port) or a bond (whose members are the physical ports: a RoCE LAG's signals are read
// on each member and reported on the LAG device's port).
#pragma once

#include "config/host_paths.hpp"
#include "model/inventory.hpp"
#include "model/prefailure_readings.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace nicd::prefailure {

// Every uplink of `inventory`, in device then port order. A LAG's members are read from
// /sys/class/net/<bond>/bonding/slaves.
std::vector<Uplink> physicalUplinks(const Inventory& inventory, const HostPaths& paths);

} // namespace nicd::prefailure
