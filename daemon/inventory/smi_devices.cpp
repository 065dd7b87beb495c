// Telling a ConnectX-8's SMI sub-device from a NIC and giving its ports to the parent as planes
// (smi_devices.hpp says why it is told apart this way).
#include "inventory/smi_devices.hpp"

#include "inventory/sysfs_values.hpp"
#include "log/log.hpp"

#include <algorithm>
#include <map>

namespace nicd::inventory {

namespace fs = std::filesystem;

std::set<std::string> uverbsDevices(const fs::path& pci_path)
{
    std::set<std::string> out;
    std::error_code ec;
    fs::directory_iterator it(pci_path / "infiniband_verbs", ec);
    for (fs::directory_iterator end; !ec && it != end; it.increment(ec))
        if (it->path().filename().string().starts_with("uverbs"))
            if (auto ibdev = sysfs::readValue(it->path() / "ibdev"))
                out.insert(*ibdev);
    return out;
}

uint32_t nativePortOf(uint32_t plane, size_t planes, size_t native_ports)
{
    if (plane == 0 || native_ports == 0 || planes % native_ports != 0 || planes < native_ports)
        return 1;
    return static_cast<uint32_t>((plane - 1) / (planes / native_ports) + 1);
}

namespace {

// The ibdevs on each PCI function, devices and ignored ones alike: (name, ignored).
std::map<std::string, std::vector<std::pair<std::string, bool>>> byFunction(const Inventory& inv)
{
    std::map<std::string, std::vector<std::pair<std::string, bool>>> out;
    for (const auto& d : inv.devices)
        if (!d.pci_path.empty())
            out[d.pci_path].emplace_back(d.ibdev, false);
    for (const auto& ig : inv.ignored)
        for (const auto& d : inv.devices)
            if (!ig.pci_address.empty() && ig.pci_address == d.pci_address) {
                out[d.pci_path].emplace_back(ig.ibdev, true);
                break;
            }
    return out;
}

void giveToParent(Device& parent, Device& smi)
{
    for (auto& p : smi.ports) {
        PlanePort plane;
        plane.smi_device = smi.ibdev;
        plane.native_port = nativePortOf(p.num, smi.ports.size(), parent.ports.size());
        plane.port = std::move(p);
        plane.port.netdevs.clear(); // the function's netdevs are the parent's
        parent.planes.push_back(std::move(plane));
    }
    std::sort(parent.planes.begin(), parent.planes.end(),
              [](const PlanePort& a, const PlanePort& b) { return a.port.num < b.port.num; });
}

} // namespace

std::vector<std::string> attachPlanes(Inventory& inv)
{
    std::map<std::string, std::string> parent_of; // SMI device -> parent
    for (const auto& [pci_path, ibdevs] : byFunction(inv)) {
        if (ibdevs.size() < 2)
            continue;
        const auto named = uverbsDevices(pci_path);
        std::vector<std::string> parents;
        for (const auto& [name, ignored] : ibdevs)
            if (named.contains(name))
                parents.push_back(name);
        if (parents.size() != 1)
            continue; // no uverbs to tell them apart (ib_uverbs not loaded), or two NICs
        for (const auto& [name, ignored] : ibdevs)
            if (!ignored && name != parents.front())
                parent_of[name] = parents.front();
    }
    std::vector<std::string> smi_names;
    for (const auto& entry : parent_of) {
        // Named, not bound: clang 14 lets no lambda capture a structured binding.
        const std::string& smi_name = entry.first;
        const std::string& parent_name = entry.second;
        auto smi = std::find_if(inv.devices.begin(), inv.devices.end(),
                                [&](const Device& d) { return d.ibdev == smi_name; });
        auto parent = std::find_if(inv.devices.begin(), inv.devices.end(),
                                   [&](const Device& d) { return d.ibdev == parent_name; });
        if (parent != inv.devices.end()) {
            giveToParent(*parent, *smi);
        } else if (auto ig =
                       std::find_if(inv.ignored.begin(), inv.ignored.end(),
                                    [&](const IgnoredDevice& i) { return i.ibdev == parent_name; });
                   ig != inv.ignored.end()) {
            IgnoredDevice planes{smi_name, ig->pci_address, ig->matched};
            inv.ignored.insert(
                std::upper_bound(inv.ignored.begin(), inv.ignored.end(), planes,
                                 [](const auto& a, const auto& b) { return a.ibdev < b.ibdev; }),
                planes);
        }
        log::debug({.device = smi_name},
                   "{}: an SMI sub-device of {} (same PCI function, no uverbs): its ports are "
                   "{}'s planes",
                   smi_name, parent_name, parent_name);
        smi_names.push_back(smi_name);
    }
    std::erase_if(inv.devices, [&](const Device& d) { return parent_of.contains(d.ibdev); });
    return smi_names;
}

} // namespace nicd::inventory
