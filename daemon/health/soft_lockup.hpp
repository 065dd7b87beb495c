// The multi-line soft-lockup report: "BUG: soft lockup - CPU#N stuck for Ss!" followed, within
// 150 lines, by a stack frame in mlx5's NAPI or CQ polling (not a speculative "? frame") means
// the mlx5 driver is wedged in its poll loop (NVSentinel #1334: a node stayed Ready for days so).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace nicd::health {

class SoftLockupDetector {
public:
    // Feeds one kernel line; returns a description when a lockup in mlx5 polling is confirmed.
    std::optional<std::string> feed(std::string_view line);

private:
    std::string header_; // the armed "BUG: soft lockup" line
    int lines_left_ = 0;
};

} // namespace nicd::health
