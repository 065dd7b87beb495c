// Every device's role, found without configuration, the way fleets classify NICs (first match):
//   1. [device:<ibdev>] Role= names it;
//   2. management: a netdev of the device (or its bond) carries the default route, unless
//      [provision] IncludeNetdevs= names it: the netdev provisioning leaves alone;
//   3. compute: it shares a PCIe switch with an NVIDIA GPU (their paths meet below the host
//      bridge: NVIDIA's PIX/PXB), or, on a node where no NIC shares a switch with a GPU, sits on
//      the NUMA node of one (on GPU nodes each compute NIC sits beside its GPUs; on an HGX board,
//      where they share switches, the other NICs of the GPUs' sockets are storage);
//   4. storage: any other RDMA device.
// Pure: the GPUs and the default-route netdevs are read by the caller.
#pragma once

#include "config/config.hpp"
#include "model/inventory.hpp"

#include <set>
#include <string>

namespace nicd::inventory {

// True when the two resolved PCI paths meet below the host bridge (a switch or a root port with
// more than one function behind it), e.g. /sys/devices/pci0000:18/0000:18:01.0/0000:19:00.0/...
bool sharePciSwitch(const std::string& a, const std::string& b);

// A netdev that carries the default route and that [provision] IncludeNetdevs= does not name: a
// management NIC's. Roles call its device management; provisioning leaves it alone.
bool isManagementNetdev(const std::string& netdev,
                        const std::set<std::string>& default_route_netdevs, const Config& config);

// Sets role and role_reason of every device of `inv`.
void assignRoles(Inventory& inv, const std::set<std::string>& default_route_netdevs,
                 const Config& config);

} // namespace nicd::inventory
