#include "inventory/netdev_state.hpp"

#include "inventory/sysfs_values.hpp"

namespace nicd {

namespace {

NetdevState readState(const sysfs::Directory& dir, const std::string& name)
{
    NetdevState s;
    s.name = name;
    s.operstate = dir.value("operstate").value_or("unknown");
    if (auto c = sysfs::parseCounter(dir.value("carrier").value_or("")); c && *c <= 1)
        s.carrier = *c == 1;
    if (auto i = sysfs::parseInt(dir.value("ifindex").value_or("")); i && *i > 0)
        s.ifindex = *i;
    return s;
}

} // namespace

NetdevState readNetdevState(const HostPaths& paths, const std::string& name)
{
    return readState(sysfs::Directory(paths.sysClassNet() / name), name);
}

std::map<std::string, NetdevState> readNetdevStates(const HostPaths& paths,
                                                    const Inventory& inventory)
{
    std::map<std::string, NetdevState> out;
    const auto net = paths.sysClassNet();
    auto add = [&](const std::string& nd) {
        if (nd.empty() || out.contains(nd))
            return;
        sysfs::Directory dir(net / nd);
        if (dir.exists())
            out.emplace(nd, readState(dir, nd));
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
