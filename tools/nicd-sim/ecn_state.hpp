// The simulated node's ECN (DCQCN) state, in MOFED's sysfs layout under each RoCE PF netdev (and
// LAG member; not VFs, bonds or IPoIB, as the driver makes it only for non-VF mlx5e netdevs):
//
//   DIR/sys/class/net/<netdev>/ecn/roce_np/enable/0..7   "0\n" or "1\n" (notification point)
//   DIR/sys/class/net/<netdev>/ecn/roce_rp/enable/0..7   "0\n" or "1\n" (reaction point)
//   DIR/sys/class/net/<netdev>/ecn/roce_np/cnp_dscp      DSCP of the CNPs sent ("48\n")
//   DIR/sys/class/net/<netdev>/ecn/roce_np/cnp_802p_prio 802.1p priority of the CNPs ("6\n")
//   DIR/sys/class/net/<netdev>/ecn/roce_np/min_time_between_cnps
//
// The mlx5 plugin reads and writes these files as it does the real ones.
#pragma once

#include "node_state.hpp"

#include <string>

namespace nicd::sim {

// At create: every priority disabled at both points, as a fresh driver may have it (the firmware
// default varies), CNPs marked DSCP 48 / priority 6.
void createEcnState(const fs::path& root, const NodeState& st);

// ECN turned off on every priority of the device's netdevs (a firmware reset, another tool).
void ecnDrift(const fs::path& root, const std::string& dev);

} // namespace nicd::sim
