// Where a netdev's statistics come from: the kernel's ethtool ioctl on a real node, the
// simulator's `ethtool -S` text file <root>/run/nicd-sim/ethtool/<netdev> under a simulated root.
#pragma once

#include "ethtool_stats.hpp"

#include <nicd/plugin/plugin.h>

#include <string>

namespace nicd::mlx5 {

// Errc::NotSupported when the netdev has no statistics (a bond, a simulated netdev without a
// file), Errc::NoDevice when it is gone; other codes are real read failures.
::nicd::plugin::v1::Status readNetdevStats(const std::string& root, bool simulated,
                                           const std::string& netdev, Stats& out);

} // namespace nicd::mlx5
