// Netdev statistics from the kernel's ethtool ioctl: SIOCETHTOOL ETHTOOL_GSSET_INFO(ETH_SS_STATS)
// (ETHTOOL_GDRVINFO's n_stats when a driver lacks it), then ETHTOOL_GSTRINGS and ETHTOOL_GSTATS.
//
// The count can change between the three calls (mlx5 adds/removes statistics when PFC, pause
// or channels change). Buffers have headroom beyond the count asked for (older kernels copy
// their current count, not ours), the count each call reports back must equal the one asked
// for (newer kernels report 0 on a mismatch), and the count is asked again at the end; on any
// disagreement the whole read is retried, so names and values always line up.
#pragma once

#include "ethtool_stats.hpp"

#include <nicd/plugin/plugin.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace nicd::mlx5 {

// Slots of headroom allocated past the count asked for.
inline constexpr size_t kEthtoolHeadroom = 64;

// From the kernel, in the calling thread's network namespace. Errc::NotSupported when the
// netdev has no statistics, Errc::NoDevice when it does not exist.
::nicd::plugin::v1::Status readEthtoolIoctl(const std::string& netdev, Stats& out);

// Pure: pairs `count` fixed 32-byte name slots (not necessarily NUL-terminated) with values.
// Names are trimmed (one mlx5 release has a trailing space); an empty name is dropped.
Stats pairEthtoolStats(const char* name_slots, const uint64_t* values, size_t count);

} // namespace nicd::mlx5
