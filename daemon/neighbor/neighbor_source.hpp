// The neighbours of every netdev, read on their own interval ([signals] IntervalSec=): from lldpd
// through liblldpctl (lldpd_client.hpp), or in a --root tree from the simulator's twin when it
// has one (run/nicd-sim/lldp/neighbors.json, lldpcli's JSON: lldpcli_json.hpp), else from an
// lldpd whose socket is the tree's run/lldpd.socket (the lldp tests run one there). A node
// without lldpd is said once in the journal, again only when that changes; nothing is raised.
#pragma once

#include "collect/source.hpp"
#include "config/host_paths.hpp"
#include "model/neighbor.hpp"
#include "neighbor/lldpd_client.hpp"

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>

namespace nicd::neighbor {

// The twin's file in `paths`' tree.
std::filesystem::path neighborsTwin(const HostPaths& paths);

class NeighborSource : public collect::Source {
public:
    NeighborSource(HostPaths paths, std::chrono::milliseconds interval,
                   std::chrono::milliseconds timeout);

    std::string name() const override { return "lldp neighbours"; }
    std::chrono::milliseconds interval() const override { return interval_; }
    void read(const Inventory& inventory) override;
    void fill(Snapshot& snap) override { snap.neighbors = last_; }

private:
    // The simulator's twin; nullopt when the tree has none.
    std::optional<NeighborReading> readTwin();

    HostPaths paths_;
    std::chrono::milliseconds interval_;
    LldpdClient client_;
    NeighborReading last_;
    std::string said_; // what was last said about lldpd being unavailable ("" = available)
    bool first_ = true;
};

} // namespace nicd::neighbor
