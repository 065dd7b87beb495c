#include "provision/host_network.hpp"

#include "provision/default_route.hpp"

#include <nicd/plugin/sdk/small_file.h>

#include <sstream>

namespace nicd::provision {

namespace {

// The routing tables of a host with thousands of routes stay well under this.
constexpr size_t kMaxTableBytes = size_t{8} << 20;

// The whole file ("" when it cannot be read): a regular file (proc's and sysfs's are), bounded,
// never waited on (a --root tree is data).
std::string slurp(const std::filesystem::path& p)
{
    std::string text;
    if (!plugin::sdk::readRegularFile(p, kMaxTableBytes, text))
        return {};
    return text;
}

} // namespace

std::set<std::string> readDefaultRouteNetdevs(const HostPaths& paths)
{
    auto out = ipv4DefaultRouteNetdevs(slurp(paths.host("/proc/net/route")));
    for (const auto& n : ipv6DefaultRouteNetdevs(slurp(paths.host("/proc/net/ipv6_route"))))
        out.insert(n);
    return out;
}

std::map<std::string, std::vector<std::string>> readBondSlaves(const HostPaths& paths,
                                                               const Inventory& inventory)
{
    std::map<std::string, std::vector<std::string>> out;
    for (const auto& d : inventory.devices) {
        if (d.bond_master.empty() || out.contains(d.bond_master))
            continue;
        std::istringstream in(
            slurp(paths.host("/sys/class/net") / d.bond_master / "bonding" / "slaves"));
        auto& members = out[d.bond_master];
        for (std::string n; in >> n;)
            members.push_back(n);
    }
    return out;
}

} // namespace nicd::provision
