// The edge of provisioning that reads the host: default-route netdevs and bond members (under
// --root, from the tree). Unreadable files give empty answers: provisioning then relies on the
// other rules and the log says what could not be read.
#pragma once

#include "config/host_paths.hpp"
#include "model/inventory.hpp"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace nicd::provision {

std::set<std::string> readDefaultRouteNetdevs(const HostPaths& paths);

// For every LAG device and bond member: its bond's members (sys/class/net/<bond>/bonding/slaves).
std::map<std::string, std::vector<std::string>> readBondSlaves(const HostPaths& paths,
                                                               const Inventory& inventory);

} // namespace nicd::provision
