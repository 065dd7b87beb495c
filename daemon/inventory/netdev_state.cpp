#include "inventory/netdev_state.hpp"

#include "inventory/sysfs_values.hpp"

namespace nicd {

NetdevState readNetdevState(const HostPaths& paths, const std::string& name)
{
    auto dir = paths.sysClassNet() / name;
    NetdevState s;
    s.name = name;
    s.operstate = sysfs::readValue(dir / "operstate").value_or("unknown");
    if (auto c = sysfs::parseCounter(sysfs::readValue(dir / "carrier").value_or("")); c && *c <= 1)
        s.carrier = *c == 1;
    if (auto i = sysfs::parseInt(sysfs::readValue(dir / "ifindex").value_or("")); i && *i > 0)
        s.ifindex = *i;
    return s;
}

std::map<std::string, NetdevState> readNetdevStates(const HostPaths& paths,
                                                    const Inventory& inventory)
{
    std::map<std::string, NetdevState> out;
    auto add = [&](const std::string& nd) {
        std::error_code ec;
        if (!nd.empty() && !out.contains(nd) &&
            std::filesystem::exists(paths.sysClassNet() / nd, ec))
            out.emplace(nd, readNetdevState(paths, nd));
    };
    for (const auto& d : inventory.devices) {
        for (const auto& p : d.ports)
            for (const auto& nd : p.netdevs)
                add(nd);
        add(d.bond_master);
    }
    return out;
}

} // namespace nicd
