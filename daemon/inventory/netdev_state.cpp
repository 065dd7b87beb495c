#include "inventory/netdev_state.hpp"

#include "inventory/sysfs_values.hpp"

namespace nicd::inventory {

namespace {

// One attribute of /sys/class/net/<nd> (operstate, carrier or ifindex) into `s`.
void setAttribute(NetdevState& s, std::string_view name, std::string_view text)
{
    if (name == "operstate") {
        if (auto v = sysfs::trim(text); !v.empty())
            s.operstate = std::string(v);
    } else if (name == "carrier") {
        if (auto c = sysfs::parseCounter(text); c && *c <= 1)
            s.carrier = *c == 1;
    } else if (name == "ifindex") {
        if (auto i = sysfs::parseInt(text); i && *i > 0)
            s.ifindex = *i;
    }
}

NetdevState readState(const sysfs::Directory& dir, const std::string& name)
{
    NetdevState s;
    s.name = name;
    s.operstate = "unknown";
    for (const char* attr : {"operstate", "carrier", "ifindex"})
        if (auto v = dir.value(attr))
            setAttribute(s, attr, *v);
    return s;
}

// Calls fn(netdev) once for every netdev the inventory names, in order.
template <typename Fn> void forEachNetdev(const Inventory& inventory, Fn fn)
{
    for (const auto& d : inventory.devices) {
        for (const auto& p : d.ports)
            for (const auto& nd : p.netdevs)
                fn(nd);
        fn(d.bond_master);
    }
}

} // namespace

NetdevState readNetdevState(const HostPaths& paths, const std::string& name)
{
    return readState(sysfs::Directory(paths.sysClassNet() / name), name);
}

std::map<std::string, NetdevState> NetdevStateReader::read(const Inventory& inventory)
{
    std::map<std::string, NetdevState> out;
    const std::string net = paths_.sysClassNet().string() + "/";
    forEachNetdev(inventory, [&](const std::string& nd) {
        if (nd.empty() || nd.find('/') != std::string::npos)
            return;
        const std::string path = net + nd;
        if (dirs_.used(path)) // named twice (a LAG's port netdev is also its bond_master)
            return;
        NetdevState s;
        s.name = nd;
        s.operstate = "unknown";
        int err = dirs_.use(path).forEach(
            [](std::string_view name) {
                return name != "operstate" && name != "carrier" && name != "ifindex";
            },
            [&s](std::string_view name, std::string_view text, int read_err) {
                if (read_err == 0)
                    setAttribute(s, name, text);
            });
        if (err == 0) // else not in /sys/class/net (renamed, another namespace): left out
            out.emplace(nd, std::move(s));
    });
    dirs_.finish();
    return out;
}

} // namespace nicd::inventory
