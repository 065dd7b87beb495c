// Netdev link state (operstate, carrier, ifindex) of every netdev the inventory names, every
// cycle, into Snapshot::netdevs. rtnetlink events override it between cycles (live_links.hpp).
#pragma once

#include "collect/source.hpp"
#include "inventory/netdev_state.hpp"

#include <map>
#include <string>

namespace nicd::collect {

class NetdevStateSource : public Source {
public:
    explicit NetdevStateSource(HostPaths paths) : reader_(std::move(paths)) {}

    std::string name() const override { return "netdev state"; }
    void read(const Inventory& inventory) override { last_ = reader_.read(inventory); }
    // Read every cycle (interval 0): what was read is handed over, not copied.
    void fill(Snapshot& snap) override { snap.netdevs = std::move(last_); }
    void rediscover() override { reader_.namesMayHaveChanged(); }

private:
    inventory::NetdevStateReader reader_;
    std::map<std::string, NetdevState> last_;
};

} // namespace nicd::collect
