// Link state of the netdevs the inventory names (and their bonds), from /sys/class/net.
#pragma once

#include "config/host_paths.hpp"
#include "model/inventory.hpp"

#include <map>
#include <string>

namespace nicd {

// Every netdev a port of `inventory` names, plus each device's bond_master, keyed by name. A
// netdev missing from /sys/class/net (renamed, moved to another namespace) is left out.
std::map<std::string, NetdevState> readNetdevStates(const HostPaths& paths,
                                                    const Inventory& inventory);

// One netdev: operstate ("unknown" when unreadable, as the kernel says when it does not know),
// carrier (absent when the read fails: EINVAL while the link is admin down), ifindex.
NetdevState readNetdevState(const HostPaths& paths, const std::string& name);

} // namespace nicd
