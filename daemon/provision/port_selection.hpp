// Which ports provisioning touches, and how (DESIGN.md §5): only mlx5 PFs managed by a plugin,
// Ethernet link layer, link up; never VFs, InfiniBand ports or management NICs; LAG devices and
// bond members only with Bonds=configure. Pure: every input is passed in.
#pragma once

#include "config/config.hpp"
#include "model/inventory.hpp"

#include <nicd/plugin/plugin.h>

#include <map>
#include <set>
#include <string>
#include <vector>

namespace nicd::provision {

struct SelectionInput {
    const Inventory& inventory;
    const std::map<std::string, NetdevState>& netdevs; // live link state, by name
    const Config& config;
    std::set<std::string> default_route_netdevs;                 // management NICs
    std::map<std::string, std::vector<std::string>> bond_slaves; // bond netdev -> members
};

struct PortPlan {
    std::string device;
    uint32_t port = 0;
    // False: not provisioned; `reason` says why. A reason starting "waiting:" is temporary (the
    // link is down): the port is provisioned when it comes up.
    bool managed = false;
    std::string reason;
    ProvisionMode mode = ProvisionMode::Enforce;
    plugin::v1::QosDesired desired;
    // The port as the plugin should see it: `netdevs` are where trust and PFC go (a LAG's
    // member netdevs under Bonds=configure), ToS goes to `device`/`port`.
    Port target;
};

std::vector<PortPlan> planPorts(const SelectionInput& in);

// The QoS a port should have, from [provision] and [device:<ibdev>].
plugin::v1::QosDesired desiredFor(const Config& config, const std::string& ibdev);

} // namespace nicd::provision
