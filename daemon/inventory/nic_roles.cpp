#include "inventory/nic_roles.hpp"

#include "inventory/sysfs_values.hpp"

#include <fmt/format.h>
#include <fnmatch.h>

#include <string_view>
#include <vector>

namespace nicd {

namespace {

std::vector<std::string_view> components(std::string_view path)
{
    std::vector<std::string_view> out;
    while (!path.empty()) {
        auto slash = path.find('/');
        auto part = path.substr(0, slash);
        if (!part.empty())
            out.push_back(part);
        if (slash == std::string_view::npos)
            break;
        path.remove_prefix(slash + 1);
    }
    return out;
}

// The netdev of `d` that carries the default route, or "".
std::string defaultRouteNetdev(const Device& d, const std::set<std::string>& routes,
                               const Config& config)
{
    std::vector<std::string> names;
    for (const auto& p : d.ports)
        names.insert(names.end(), p.netdevs.begin(), p.netdevs.end());
    if (!d.bond_master.empty())
        names.push_back(d.bond_master);
    for (const auto& n : names)
        if (isManagementNetdev(n, routes, config))
            return n;
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
    auto pa = components(a);
    auto pb = components(b);
    // The last component is the function itself: only the bridges above it can be shared.
    size_t common = 0;
    while (common + 1 < pa.size() && common + 1 < pb.size() && pa[common] == pb[common])
        ++common;
    for (size_t i = 0; i < common; ++i)
        if (sysfs::isPciAddress(pa[i]))
            return true; // a PCI bridge (not the host bridge pciDDDD:BB) above both
    return false;
}

void assignRoles(Inventory& inv, const std::set<std::string>& default_route_netdevs,
                 const Config& config)
{
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
        for (const auto& g : inv.gpus) {
            if (!d.pci_path.empty() && sharePciSwitch(d.pci_path, g.pci_path)) {
                near = &g;
                same_switch = true;
                break;
            }
            if (!near && d.numa_node && g.numa_node == d.numa_node)
                near = &g;
        }
        if (near) {
            d.role = Role::Compute;
            d.role_reason = same_switch ? "shares a PCIe switch with GPU " + near->pci_address
                                        : fmt::format("on NUMA node {} with GPU {}", *d.numa_node,
                                                      near->pci_address);
            continue;
        }
        d.role = Role::Storage;
        d.role_reason = inv.gpus.empty() ? "no GPU on this node" : "no GPU beside it";
    }
}

} // namespace nicd
