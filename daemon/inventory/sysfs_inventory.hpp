// Discovery of RDMA devices, ports and netdevs from sysfs, as the kernel lays it out.
#pragma once

#include "config/host_paths.hpp"
#include "model/inventory.hpp"

#include <map>
#include <string>

namespace nicd {

// Every entry of <root>/sys/class/infiniband. Never throws; a broken device is listed with what
// could be read, and never hides the others.
Inventory discoverInventory(const HostPaths& paths);

} // namespace nicd
