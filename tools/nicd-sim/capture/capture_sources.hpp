// What a sample holds: the counter files of each device and the tool outputs that carry counters
// (ethtool statistics, FEC), as read by one pass of device_reads.hpp.
#pragma once

#include "capture/capture_tree.hpp"
#include "capture/sysfs_walk.hpp"
#include "capture_replay.hpp"

#include <set>
#include <string>

namespace nicd::sim::capture {

struct ToolCapture {
    std::set<std::string> ethtool; // netdevs whose statistics were captured
    std::set<std::string> fec;     // netdevs whose FEC statistics were captured
};

// The sample that `tree` holds: its counter files (FIFOs among them), ethtool statistics and FEC
// captures.
CaptureSample sampleOf(const CaptureTree& tree, const CapturedNode& node,
                       const ToolCapture& captured, double offset_s);

// `now` with only what differs from `before` (most counters stand still): a file whose content
// changed or that was a FIFO, a FIFO that was not one. What a later sample stores, as samples are
// played in order from the first, which is whole.
CaptureSample changedSince(const CaptureSample& before, const CaptureSample& now);

} // namespace nicd::sim::capture
