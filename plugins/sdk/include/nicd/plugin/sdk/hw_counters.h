// An RDMA driver's per-port counters, <sysfs_path>/ports/N/hw_counters/* (mlx5_ib, bnxt_re).
#pragma once

#include <nicd/plugin/plugin.h>
#include <nicd/plugin/sdk/backoff.h>
#include <nicd/plugin/sdk/counter_dir.h>
#include <nicd/plugin/sdk/sample_batch.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace nicd::plugin::sdk {

// Appends one value (source "hw_counters") per readable file of every port and returns the
// first error; an unreadable or garbled file is skipped and the rest still read. A file that
// fails is backed off in `backoff` (key: its path) rather than retried every poll, and dropped
// once refused DropCounterAfter reads in a row (Backoff::isRefusal); the `failed`/`recovered`/
// `dropped` lists name the files whose state changed this call (worth a log line).
// Each port's directory stays open in `dirs` from one call to the next (sdk::CounterDir).
using HwCounterDirs = std::map<uint32_t, std::unique_ptr<::nicd::plugin::sdk::CounterDir>>;
// The port's <sysfs_path>/ports/N/hw_counters in `dirs`, made anew when the device's sysfs path
// is no longer the one it was opened at.
::nicd::plugin::sdk::CounterDir&
hwCounterDir(HwCounterDirs& dirs, const ::nicd::plugin::v1::DeviceRef& dev, uint32_t port);
// Which of a driver's hw_counters are gauges (a level, such as bnxt_re's active_qps, not a count):
// the plugin's own list; null: none. `lifespan` (ib_core's cache lifetime in ms) always is one.
using GaugeTest = bool (*)(std::string_view name);
::nicd::plugin::v1::SampleKind hwCounterKind(std::string_view name, GaugeTest gauge);
struct HwCounterChanges {
    std::vector<std::string> failed;    // "path: reason"
    std::vector<std::string> recovered; // path
    std::vector<std::string> dropped;   // "path: reason": not read again
};
::nicd::plugin::v1::Status
readHwCounters(const ::nicd::plugin::v1::DeviceRef& dev, ::nicd::plugin::sdk::Backoff& backoff,
               HwCounterDirs& dirs, ::nicd::plugin::sdk::SampleBatchBuilder& out,
               HwCounterChanges* changes = nullptr, GaugeTest gauge = nullptr);

} // namespace nicd::plugin::sdk
