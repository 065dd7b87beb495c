#include "inventory/netdev_state.hpp"

#include "inventory/sysfs_values.hpp"

namespace nicd {

NetdevState readNetdevState(const HostPaths& paths, const std::string& name)
{
    auto dir = paths.sysClassNet() / name;
    NetdevState s;
    s.name = name;
    s.operstate = sysfs::readValue(dir / "operstate").value_or("unknown");
    // carrier reads EINVAL while the link is administratively down: absent, not 0.
    if (auto c = sysfs::parseCounter(sysfs::readValue(dir / "carrier").value_or("")))
        s.carrier = *c != 0;
    if (auto i = sysfs::parseCounter(sysfs::readValue(dir / "ifindex").value_or("")))
        s.ifindex = static_cast<int>(*i);
    return s;
}

std::map<std::string, NetdevState> readNetdevStates(const HostPaths& paths,
                                                    const Inventory& inventory)
{
    std::map<std::string, NetdevState> out;
    std::error_code ec;
    for (const auto& d : inventory.devices) {
        for (const auto& p : d.ports)
            for (const auto& nd : p.netdevs)
                if (!out.contains(nd) && std::filesystem::exists(paths.sysClassNet() / nd, ec))
                    out.emplace(nd, readNetdevState(paths, nd));
        if (!d.bond_master.empty() && !out.contains(d.bond_master))
            out.emplace(d.bond_master, readNetdevState(paths, d.bond_master));
    }
    return out;
}

} // namespace nicd
