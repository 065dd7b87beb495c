// Link state of the netdevs the inventory names (and their bonds), from /sys/class/net.
#pragma once

#include "config/host_paths.hpp"
#include "inventory/kept_dirs.hpp"
#include "model/inventory.hpp"

#include <map>
#include <string>

namespace nicd::inventory {

// Every netdev a port of `inventory` names, plus each device's bond_master, keyed by name, read
// every cycle. A netdev missing from /sys/class/net (renamed, moved to another namespace) is left
// out. Each netdev's operstate, carrier and ifindex files stay open from one read to the next
// (sdk::CounterDir: reopened when the directory changed or another one is at the path, as after
// a rename). A rename is seen at the read after namesMayHaveChanged() (rtnetlink announced a
// link change), otherwise within sdk::CounterDir::kPathCheckEvery reads.
class NetdevStateReader {
public:
    explicit NetdevStateReader(HostPaths paths) : paths_(std::move(paths)) {}
    std::map<std::string, NetdevState> read(const Inventory& inventory);
    void namesMayHaveChanged() { dirs_.checkPathsNext(); }

private:
    HostPaths paths_;
    KeptDirs dirs_; // /sys/class/net/<nd> of every netdev named
};

// One netdev, read afresh: operstate ("unknown" when unreadable, as the kernel says when it does
// not know), carrier (absent when the read fails: EINVAL while the link is admin down), ifindex.
// NetdevStateReader reads the same way.
NetdevState readNetdevState(const HostPaths& paths, const std::string& name);

} // namespace nicd::inventory
