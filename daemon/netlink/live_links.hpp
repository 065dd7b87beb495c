// Netdev link state as rtnetlink events report it, kept between cycles: it wins over what the
// cycle read from sysfs (an event is newer than the poll). Under a simulated root, events apply
// to the tree's interface of the same name. Loop thread; pure.
#pragma once

#include "model/inventory.hpp"
#include "model/snapshot.hpp"
#include "netlink/link_message.hpp"

#include <map>
#include <optional>
#include <string>

namespace nicd::netlink {

class LiveLinks {
public:
    // Takes an event; returns the netdev's new state when it changed (not for a removal).
    std::optional<NetdevState> update(const LinkEvent& ev);
    // Overrides the snapshot's netdev states with the live ones.
    void applyTo(Snapshot& snap) const;

private:
    std::map<std::string, NetdevState> live_;
};

} // namespace nicd::netlink
