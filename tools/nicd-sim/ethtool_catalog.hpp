// What `ethtool -S` prints for an mlx5e netdev: every statistic of the driver's groups, in the
// driver's order and names, per channel for the channel count and per priority, with the rate
// each advances at on a busy up port. Pure: the same arguments give the same list.
#pragma once

#include "counter_catalog.hpp"
#include "sim.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace nicd::sim {

// The statistics of a PF's uplink netdev (every group, PFC enabled on priority 3) or of a VF's
// netdev (the software, queue, vNIC and vport groups and its channels), for `channels` channels
// (1..kMaxChannels; throws SimError otherwise).
const std::vector<CounterSpec>& mlx5eStatistics(bool physical_function, unsigned channels);

// The spec of a statistic that is not per channel (rate, width); nullptr for a name the driver
// does not print or that is per channel.
const CounterSpec* mlx5eStatistic(std::string_view name);

// A per-channel statistic's software total, which the driver sums over the channels: "rx12_packets"
// -> "rx_packets", "ch3_events" -> "ch_events", "tx0_xdp_xmit" -> "tx_xdp_xmit". Empty for a name
// that is not of a channel ("rx_prio3_pause", "rx_packets").
std::string channelTotal(std::string_view name);

// Channel `channel`'s part of `total` spread over `channels` channels: an even share, the first
// total % channels channels one more, so that the parts add up to the total and each part only
// grows while the total does.
uint64_t channelShare(uint64_t total, unsigned channel, unsigned channels);

} // namespace nicd::sim
