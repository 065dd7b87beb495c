// The parts of a capture that are read again for every sample: the counters of each device and
// the tool outputs (ethtool statistics, FEC) that carry counters; and the tool outputs read once.
#pragma once

#include "capture/capture_tree.hpp"
#include "capture/manifest.hpp"
#include "capture/sysfs_walk.hpp"
#include "capture/tool_outputs.hpp"
#include "capture_replay.hpp"

#include <set>
#include <string>

namespace nicd::sim::capture {

struct ToolCapture {
    std::set<std::string> ethtool; // netdevs whose statistics were captured
    std::set<std::string> fec;     // netdevs whose FEC statistics were captured
};

// Every tool output of every captured netdev (bonds have none) and devlink health, into `tree`.
ToolCapture captureToolOutputs(ToolOutputs& tools, const CapturedNode& node, CaptureTree& tree,
                               Manifest& manifest);

// Counters, ethtool statistics and FEC captures read now (sample 2 and later).
CaptureTree readSampleSources(SysfsWalk& walk, ToolOutputs& tools, const CapturedNode& node,
                              const ToolCapture& captured, Manifest& manifest);

// The sample that `tree` holds: its counter files, ethtool statistics and FEC captures.
CaptureSample sampleOf(const CaptureTree& tree, const CapturedNode& node,
                       const ToolCapture& captured, double offset_s);

// `now` with only the files whose content differs from `before` (most counters stand still):
// what a later sample stores, as samples are played in order from the first, which is whole.
CaptureSample changedSince(const CaptureSample& before, const CaptureSample& now);

} // namespace nicd::sim::capture
