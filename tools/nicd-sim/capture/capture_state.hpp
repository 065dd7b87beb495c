// The simulator's state.json for a capture (node_state.hpp), made from what was captured, so that
// `nicd-sim list`, `run` and the faults work on it as on a node nicd-sim created: one entry per
// captured RDMA device with its role (lag for mlx5_bond_*, vf with a physfn, ib for an InfiniBand
// port 1, else pf), vendor (by its PCI function's vendor ID), PCI address, sysfs directory, port
// 1's netdevs and the netdevs whose ethtool statistics were captured; stalled when its counters/
// are FIFOs. From a simulated source, a stalled device's saved counter values come along, so
// `inject unstall` works on the capture too.
#pragma once

#include "capture/sysfs_walk.hpp"
#include "node_state.hpp"

#include <set>
#include <string>

namespace nicd::sim::capture {

NodeState captureState(const CapturedNode& node, const CaptureTree& tree,
                       const std::set<std::string>& ethtool_netdevs, const fs::path& src);

} // namespace nicd::sim::capture
