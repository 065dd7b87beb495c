// Netdev statistics from the kernel's ethtool ioctl: SIOCETHTOOL ETHTOOL_GSSET_INFO(ETH_SS_STATS)
// (ETHTOOL_GDRVINFO's n_stats when a driver lacks it), then ETHTOOL_GSTRINGS and ETHTOOL_GSTATS.
//
// The count can change between the three calls (mlx5 adds/removes statistics when PFC, pause
// or channels change), and kernels before 7b07be1ff1cb then copy their *current* count, not the
// one asked for; newer ones report 0 instead. So the names and the values are read into buffers
// that end at a guard page (guarded_buffer.hpp): a larger count makes the kernel's copy fault
// (EFAULT) instead of writing past them. The count each call reports back must equal the one
// asked for, and the count is asked again at the end; on any disagreement (or EFAULT) the whole
// read is retried, so names and values always line up.
#pragma once

#include <nicd/plugin/plugin.h>
#include <nicd/plugin/sdk/ethtool_stats.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace nicd::plugin::sdk {

// From the kernel, in the calling thread's network namespace. Errc::NotSupported when the
// netdev has no statistics, Errc::NoDevice when it does not exist, Errc::Busy when the count
// changed on every attempt.
::nicd::plugin::v1::Status readEthtoolIoctl(const std::string& netdev, Stats& out);

// One SIOCETHTOOL call on the netdev: `data` is the command's struct (ethtool_sset_info,
// ethtool_drvinfo, ethtool_gstrings, ethtool_stats) and its trailing data; returns 0 or the
// errno. The kernel on a real node; a test's fake kernel otherwise.
using EthtoolCall = std::function<int(void* data)>;
// readEthtoolIoctl's reads through `call`.
::nicd::plugin::v1::Status readEthtoolStats(const std::string& netdev, const EthtoolCall& call,
                                            Stats& out);

// Pure: pairs `count` fixed 32-byte name slots (not necessarily NUL-terminated) with values.
// Names are trimmed (one mlx5 release has a trailing space); an empty name is dropped.
Stats pairEthtoolStats(const char* name_slots, const uint64_t* values, size_t count);

} // namespace nicd::plugin::sdk
