// The multi-line soft-lockup report: the kernel's "BUG: soft lockup - CPU#N stuck for Ss!"
// followed, within 150 lines, by a stack frame in mlx5's NAPI or CQ polling (the running frame,
// not a speculative "? frame") means the mlx5 driver is wedged in its poll loop (NVSentinel #1334:
// a node stayed Ready for days so).
//
// Both halves are device-less kernel lines, so both are recognised only by their shape where the
// kernel's report starts (kernel_origin.hpp): the header at the start of the message (after the
// watchdog's own "watchdog: " prefix), a frame only as a whole line of the trace that follows a
// genuine header ("  mlx5e_napi_poll+0x1f/0x2a0 [mlx5_core]", or the "RIP: 0010:" line). A
// segfault report of a program named "BUG: soft lockup..." or "mlx5e_napi_poll+0x1f" is neither.
#pragma once

#include <nicd/plugin/plugin.h>

#include <optional>
#include <string>
#include <string_view>

namespace nicd::health {

class SoftLockupDetector {
public:
    // Feeds one kernel record, in journal order; returns a description when a lockup in mlx5
    // polling is confirmed. Records about a device are not part of a report and are skipped.
    std::optional<std::string> feed(const plugin::v1::KernelRecord& rec);

private:
    std::string header_; // the armed "BUG: soft lockup" line
    int lines_left_ = 0;
};

// The running function of a stack-trace line, "mlx5e_napi_poll" of
// "  mlx5e_napi_poll+0x1f/0x2a0 [mlx5_core]" or "RIP: 0010:mlx5e_napi_poll+0x1f/0x2a0"; nullopt
// for any other line, and for a speculative frame ("? mlx5e_napi_poll+0x1f/0x2a0").
std::optional<std::string_view> runningFrame(std::string_view line);

} // namespace nicd::health
