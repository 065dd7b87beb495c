// The netdevs that carry a default route (/proc/net/route and ipv6_route), read once per cycle on
// the worker into Snapshot::default_route_netdevs: the management NICs that roles name and that
// provisioning leaves alone, both judged from the same read.
#pragma once

#include "collect/source.hpp"
#include "provision/host_network.hpp"

namespace nicd::provision {

class DefaultRouteSource : public collect::Source {
public:
    explicit DefaultRouteSource(HostPaths paths) : paths_(std::move(paths)) {}

    std::string name() const override { return "default route"; }
    void read(const Inventory&) override { last_ = readDefaultRouteNetdevs(paths_); }
    // Read every cycle (interval 0): what was read is handed over, not copied.
    void fill(Snapshot& snap) override { snap.default_route_netdevs = std::move(last_); }

private:
    HostPaths paths_;
    std::set<std::string> last_;
};

} // namespace nicd::provision
