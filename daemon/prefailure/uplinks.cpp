#include "prefailure/uplinks.hpp"

#include "config/value_parsers.hpp"
#include "inventory/sysfs_values.hpp"

#include <set>

namespace nicd::prefailure {

namespace {

// "400 Gb/sec (4X NDR)" -> 4.
std::optional<int> widthOf(const std::string& rate)
{
    auto open = rate.find('(');
    auto x = rate.find('X', open);
    if (open == std::string::npos || x == std::string::npos || x == open + 1)
        return std::nullopt;
    auto n = sysfs::parseInt(std::string_view(rate).substr(open + 1, x - open - 1));
    return n && *n > 0 ? n : std::nullopt;
}

std::vector<std::string> bondSlaves(const HostPaths& paths, const std::string& bond)
{
    auto text = sysfs::readValue(paths.sysClassNet() / bond / "bonding/slaves");
    return text ? config::splitWords(*text) : std::vector<std::string>{};
}

} // namespace

std::vector<Uplink> physicalUplinks(const Inventory& inventory, const HostPaths& paths)
{
    std::vector<Uplink> out;
    std::set<std::string> seen; // a netdev is one physical port, whichever device names it
    for (const auto& d : inventory.devices) {
        if (d.function == DeviceFunction::VirtualFunction)
            continue;
        for (const auto& p : d.ports) {
            std::vector<std::string> netdevs = p.netdevs;
            if (d.function == DeviceFunction::Lag && !d.bond_master.empty())
                netdevs = bondSlaves(paths, d.bond_master);
            for (const auto& nd : netdevs)
                if (seen.insert(nd).second)
                    out.push_back({d.ibdev, p.num, nd, p.link_layer, p.rate_gbps, widthOf(p.rate),
                                   p.state == 4});
        }
    }
    return out;
}

} // namespace nicd::prefailure
