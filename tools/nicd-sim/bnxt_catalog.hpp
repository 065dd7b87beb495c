// The statistics a Broadcom Thor2 (BCM57608) port shows, named and counted as the upstream
// drivers print them (sources in bnxt_catalog.cpp), with the rate each advances at on a busy up
// port: bnxt_re's ports/1/hw_counters (the names of Linux 6.18, which match mlx5's where the two
// count the same thing) and bnxt_en's `ethtool -S` for a netdev with N combined rings
// (26 per ring and 212 for the port: "[<ring>]: <name>" lines first). Pure.
#pragma once

#include "counter_catalog.hpp"
#include "sim.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace nicd::sim {

// ports/1/hw_counters of a bnxt_re port on a P7 PF (every counter 64-bit: no wrap), lifespan
// included. `roce` is always true for bnxt (its link layer is Ethernet only).
const std::vector<CounterSpec>& bnxtHwCounters(bool roce);

// `ethtool -S` of a PF's netdev with `rings` combined rings (1..kMaxChannels; SimError
// otherwise): per ring 8 rx, 8 tx, 6 TPA (P7), 3 rx software and 1 common statistic, then the 9
// ring totals, the 79 port, 60 port-ext rx, 32 port-ext tx and 32 per-priority statistics. A VF
// (no port statistics) prints its rings and the ring totals.
const std::vector<CounterSpec>& bnxtEthtoolStatistics(bool physical_function, unsigned rings);

// The spec of a statistic that is not a ring's share of a port counter; nullptr otherwise and
// for a name bnxt_en does not print.
const CounterSpec* bnxtEthtoolStatistic(std::string_view name);

// A ring's unicast traffic is its share of the stack traffic of class of service 0 (the rings
// carry the kernel's traffic; RoCE bypasses them): "[3]: rx_ucast_packets" -> "rx_packets_cos0".
// Empty for every other name.
std::string bnxtRingTotal(std::string_view name);

} // namespace nicd::sim
