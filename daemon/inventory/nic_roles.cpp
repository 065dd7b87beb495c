#include "inventory/nic_roles.hpp"

#include "inventory/sysfs_values.hpp"

#include <fmt/format.h>
#include <fnmatch.h>

#include <algorithm>
#include <string_view>
#include <vector>

namespace nicd::inventory {

namespace {

// The next non-empty component of `path`, taken off its front ("" at the end).
std::string_view nextComponent(std::string_view& path)
{
    while (!path.empty()) {
        auto slash = path.find('/');
        auto part = path.substr(0, slash);
        path.remove_prefix(slash == std::string_view::npos ? path.size() : slash + 1);
        if (!part.empty())
            return part;
    }
    return {};
}

// The netdev of `d` that carries the default route, or "".
std::string defaultRouteNetdev(const Device& d, const std::set<std::string>& routes,
                               const Config& config)
{
    for (const auto& p : d.ports)
        for (const auto& n : p.netdevs)
            if (isManagementNetdev(n, routes, config))
                return n;
    if (!d.bond_master.empty() && isManagementNetdev(d.bond_master, routes, config))
        return d.bond_master;
    return {};
}

} // namespace

bool isManagementNetdev(const std::string& netdev,
                        const std::set<std::string>& default_route_netdevs, const Config& config)
{
    if (!default_route_netdevs.contains(netdev))
        return false;
    for (const auto& g : config.provision.include_netdevs)
        if (fnmatch(g.c_str(), netdev.c_str(), 0) == 0)
            return false;
    return true;
}

bool sharePciSwitch(const std::string& a, const std::string& b)
{
    // Walks both paths component by component while they agree. The last component is the
    // function itself: only the bridges above it can be shared, so a common component counts
    // only when both paths go on after it.
    std::string_view ra = a, rb = b;
    auto ca = nextComponent(ra), cb = nextComponent(rb);
    while (!ca.empty() && ca == cb) {
        auto na = nextComponent(ra), nb = nextComponent(rb);
        if (na.empty() || nb.empty())
            return false;
        if (sysfs::isPciAddress(ca))
            return true; // a PCI bridge (not the host bridge pciDDDD:BB) above both
        ca = na;
        cb = nb;
    }
    return false;
}

void assignRoles(Inventory& inv, const std::set<std::string>& default_route_netdevs,
                 const Config& config)
{
    // On a board whose NICs sit under the GPUs' PCIe switches (HGX), those are the compute NICs;
    // the others on the GPUs' sockets (storage, north-south) are not. NUMA decides only where no
    // NIC shares a switch with a GPU.
    const bool switched = std::any_of(inv.devices.begin(), inv.devices.end(), [&](const Device& d) {
        return !d.pci_path.empty() &&
               std::any_of(inv.gpus.begin(), inv.gpus.end(), [&](const GpuFunction& g) {
                   return sharePciSwitch(d.pci_path, g.pci_path);
               });
    });
    for (auto& d : inv.devices) {
        if (auto ov = config.devices.find(d.ibdev); ov != config.devices.end() && ov->second.role) {
            d.role = *ov->second.role;
            d.role_reason = "[device:" + d.ibdev + "] Role=";
            continue;
        }
        if (auto nd = defaultRouteNetdev(d, default_route_netdevs, config); !nd.empty()) {
            d.role = Role::Management;
            d.role_reason = nd + " carries the default route";
            continue;
        }
        const GpuFunction* near = nullptr;
        bool same_switch = false;
        bool same_socket = false;
        for (const auto& g : inv.gpus) {
            if (!d.pci_path.empty() && sharePciSwitch(d.pci_path, g.pci_path)) {
                near = &g;
                same_switch = true;
                break;
            }
            // A NIC on NUMA node -1 (a VM, a one-socket board) has no affinity: it is on no
            // socket apart from any GPU.
            const bool numa_near = !d.numa_node || g.numa_node == d.numa_node;
            same_socket = same_socket || numa_near;
            if (!near && !switched && numa_near)
                near = &g;
        }
        if (near) {
            d.role = Role::Compute;
            d.role_reason = same_switch   ? "shares a PCIe switch with GPU " + near->pci_address
                            : d.numa_node ? fmt::format("on NUMA node {} with GPU {}", *d.numa_node,
                                                        near->pci_address)
                                          : "no NUMA node to tell it from GPU " + near->pci_address;
            continue;
        }
        d.role = Role::Storage;
        d.role_reason = inv.gpus.empty() ? "no GPU on this node"
                        : same_socket    ? "no GPU under its PCIe switch"
                                         : "no GPU beside it";
    }
}

} // namespace nicd::inventory
