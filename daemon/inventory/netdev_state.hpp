// Link state of the netdevs the inventory names (and their bonds), from /sys/class/net.
#pragma once

#include "config/host_paths.hpp"
#include "model/inventory.hpp"

#include <map>
#include <string>

namespace nicd {

std::map<std::string, NetdevState> readNetdevStates(const HostPaths& paths,
                                                    const Inventory& inventory);

NetdevState readNetdevState(const HostPaths& paths, const std::string& name);

} // namespace nicd
