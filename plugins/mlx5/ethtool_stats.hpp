// Netdev driver statistics (what `ethtool -S` shows), by name.
#pragma once

#include <nicd/plugin/plugin.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace nicd::mlx5 {

using Stats = std::vector<std::pair<std::string, uint64_t>>;

// Pure: parses `ethtool -S` output ("NIC statistics:" then "     name: value" lines). Lines that
// are not "name: unsigned number" are skipped.
Stats parseEthtoolText(std::string_view text);

// From the kernel: SIOCETHTOOL ETHTOOL_GSSET_INFO, ETHTOOL_GSTRINGS, ETHTOOL_GSTATS. The count is
// re-checked after the strings and the stats are read; if it changed (a driver reconfiguring its
// queues) the whole read is retried, so names and values never disagree.
::nicd::plugin::v1::Status readEthtoolIoctl(const std::string& netdev, Stats& out);

} // namespace nicd::mlx5
