// Which netdevs belong to an RDMA port: the rules, as pure functions over what sysfs listed.
//
// First choice is ports/N/gid_attrs/ndevs/<gid index> (the netdev each RoCE GID is bound to; GID 0
// is the one `ibdev2netdev` reports, and for a RoCE LAG it is the bond). Without GID attributes
// (InfiniBand ports, old kernels) the PCI function's netdevs, device/net/*, are used; a device with
// several ports on one PCI function (mlx4) tells them apart by net/<nd>/dev_port (dev_id on
// kernels before 3.15), and switchdev representors (pf0vf1, pf0sf2, ...) that device/net also lists
// are left out. See shared/reference/qos-provisioning.md §6.3.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace nicd::inventory {

// A plausible netdev name (1-15 bytes, no '/', no whitespace, not "." or ".."): what a file
// claims to be a netdev name is only used when it is one.
bool isNetdevName(std::string_view name);

// gid_attrs/ndevs entries as (GID index, netdev name): unique valid names, lowest GID first.
std::vector<std::string> gidNetdevs(std::vector<std::pair<uint64_t, std::string>> by_gid_index);

// One entry of device/net/: its name and the port-selecting attributes, when readable.
struct FunctionNetdev {
    std::string name;
    std::optional<uint64_t> dev_port; // net/<nd>/dev_port, 0-based port
    std::optional<uint64_t> dev_id;   // net/<nd>/dev_id, 0-based port on kernels before dev_port
    std::string phys_port_name{};     // "p0" for an uplink; "pf0vf1" for a representor
};

// The netdevs of port `port` (1-based) of a device with `port_count` ports, sorted by name. With
// one port, all of them. With several, the first attribute that every netdev has and that says
// something (a non-zero value somewhere, or a single netdev) selects those with value port-1;
// when neither does, all of them (better listed twice than lost).
std::vector<std::string> functionNetdevsOfPort(const std::vector<FunctionNetdev>& netdevs,
                                               uint32_t port, size_t port_count);

} // namespace nicd::inventory
