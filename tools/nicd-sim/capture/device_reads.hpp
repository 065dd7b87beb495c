// A capture's reads of the RDMA devices, each device's on one worker under one deadline
// (deadline_job.hpp, --timeout): its sysfs walk with its netdevs' module EEPROMs and DCB; and in
// every sample, its counters (counters/, hw_counters/) with its netdevs' ethtool and FEC
// statistics. A device whose job does not end in time is marked timed out: the manifest says what
// it was reading, its counter files not read become FIFOs (so reads block in the replay as they
// did on the node), and it is read no more, in later samples or by tools. A worker stuck in the
// kernel cannot be stopped: at most kMaxStuckWorkers are ever left behind, and past that the
// remaining devices are skipped (noted) rather than each adding a stuck thread and a deadline.
#pragma once

#include "capture/capture_sources.hpp"
#include "capture/sysfs_walk.hpp"
#include "capture/tool_outputs.hpp"

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace nicd::sim::capture {

inline constexpr std::chrono::milliseconds kDefaultDeviceTimeout{5000};
inline constexpr int kMaxStuckWorkers = 8;

class DeviceReads {
public:
    // A fresh ToolOutputs for one device (its own sockets: a worker left behind keeps its own).
    using ToolsFactory = std::function<std::shared_ptr<ToolOutputs>()>;

    DeviceReads(SysfsWalk& walk, ToolsFactory tools, std::chrono::milliseconds timeout,
                Manifest& manifest);

    // Walks `names` (SysfsWalk::deviceNames) and the GPUs into the walk's tree; each device's
    // module EEPROMs and DCB into `tree`; then devlink health (one job of its own).
    CapturedNode walk(const std::vector<std::string>& names, CaptureTree& tree);

    // One sample, read now: every device's counters, ethtool and FEC statistics. The first one
    // tries every netdev and records in `captured` those that answered; later ones read those.
    CaptureTree sample(CapturedNode& node, ToolCapture& captured, bool first);

    int stuckWorkers() const { return stuck_; }

private:
    bool mayStart(const std::string& device);
    void timedOut(CapturedDevice& d, const std::string& what, const std::string& reading,
                  CaptureTree& counters_into);
    std::shared_ptr<ToolOutputs> toolsOf(const std::string& device);

    SysfsWalk& walk_;
    ToolsFactory make_tools_;
    std::chrono::milliseconds timeout_;
    Manifest& manifest_;
    std::map<std::string, std::shared_ptr<ToolOutputs>> tools_;
    int stuck_ = 0;
};

} // namespace nicd::sim::capture
