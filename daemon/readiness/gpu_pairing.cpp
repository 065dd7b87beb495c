#include "readiness/gpu_pairing.hpp"

#include "inventory/sysfs_values.hpp"

#include <algorithm>
#include <string_view>

namespace nicd::readiness {

namespace {

// The components of a path with where each ends in it.
struct Component {
    std::string_view name;
    size_t end = 0;
};

std::vector<Component> componentsOf(std::string_view path)
{
    std::vector<Component> out;
    size_t i = 0;
    while (i < path.size()) {
        while (i < path.size() && path[i] == '/')
            ++i;
        size_t start = i;
        while (i < path.size() && path[i] != '/')
            ++i;
        if (i > start)
            out.push_back({path.substr(start, i - start), i});
    }
    return out;
}

} // namespace

std::vector<BridgeOnPath> bridgesBetween(const std::string& a, const std::string& b)
{
    auto ca = componentsOf(a), cb = componentsOf(b);
    if (ca.empty() || cb.empty())
        return {};
    // The last component of each is the function itself: only those above can be shared.
    size_t common = 0;
    while (common + 1 < ca.size() && common + 1 < cb.size() && ca[common].name == cb[common].name)
        ++common;
    // ca[common - 1] is the lowest shared component: it must be a PCI bridge (not pciDDDD:BB).
    if (common == 0 || !sysfs::isPciAddress(ca[common - 1].name))
        return {};
    std::vector<BridgeOnPath> out;
    auto add = [&](const std::vector<Component>& c, std::string_view path, size_t i) {
        std::string address(c[i].name);
        if (!sysfs::isPciAddress(address))
            return;
        if (std::none_of(out.begin(), out.end(),
                         [&](const BridgeOnPath& x) { return x.address == address; }))
            out.push_back({address, std::string(path.substr(0, c[i].end))});
    };
    add(ca, a, common - 1);
    for (size_t i = common; i + 1 < ca.size(); ++i)
        add(ca, a, i);
    for (size_t i = common; i + 1 < cb.size(); ++i)
        add(cb, b, i);
    return out;
}

std::vector<GpuPairing> pairGpus(const Device& nic, const std::vector<GpuFunction>& gpus)
{
    std::vector<GpuPairing> below_switch, same_numa, all;
    for (const auto& g : gpus) {
        GpuPairing p;
        p.gpu = g.pci_address;
        p.gpu_numa = g.numa_node;
        if (!nic.pci_path.empty())
            for (auto& bridge : bridgesBetween(nic.pci_path, g.pci_path))
                p.bridges.push_back(std::move(bridge.address));
        p.shares_switch = !p.bridges.empty();
        if (p.shares_switch)
            below_switch.push_back(p);
        else if (nic.numa_node && g.numa_node == nic.numa_node)
            same_numa.push_back(p);
        all.push_back(std::move(p));
    }
    if (!below_switch.empty())
        return below_switch;
    if (!same_numa.empty())
        return same_numa;
    return all;
}

} // namespace nicd::readiness
