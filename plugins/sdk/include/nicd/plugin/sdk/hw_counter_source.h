// Where one device's hw_counters come from. On a real root, RDMA netlink: one
// RDMA_NLDEV_CMD_STAT_GET per port (sdk::RdmaStatsClient) instead of a pread of each of the
// port's 30-60 hw_counters/ files. Under --root, and for a device the kernel refused it to,
// the files (readHwCounters).
//
// The series are the same either way, so that nothing downstream tells them apart: source
// "hw_counters", the same names and values (the kernel prints the same sum in both), sorted by
// name as the files are. The reply is the source of truth for the names it has. It has every
// counter that has a file but `lifespan` (the driver's cache lifetime in ms, a setting that
// netlink does not carry), which is still read from its file (one pread a port). Optional
// counters, which never have a file, are in the reply only after an operator enabled them
// (`rdma statistic set link DEV/PORT optional-counters ...`): then they are published too.
//
// Any failure of RDMA netlink for a device (no NETLINK_RDMA, a kernel before 5.3 or a driver
// without port counters refusing with EINVAL, EOPNOTSUPP, the device not in the kernel's list, no
// answer in time, a malformed reply) makes that device read its files, from that very poll on;
// why is given once (takeNetlinkRefusal), and netlink is not asked again for the device until it
// is attached again (a new HwCounterSource).
#pragma once

#include <nicd/plugin/plugin.h>
#include <nicd/plugin/sdk/backoff.h>
#include <nicd/plugin/sdk/hw_counters.h>
#include <nicd/plugin/sdk/rdma_stats_client.h>
#include <nicd/plugin/sdk/sample_batch.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace nicd::plugin::sdk {

class HwCounterSource {
public:
    explicit HwCounterSource(GaugeTest gauge = nullptr) : gauge_(gauge) {}
    // Appends every port's hw counters to `out` and returns the first error, as readHwCounters
    // (whose `changes` it fills the same way). `rdma` is the plugin's RDMA netlink client on a
    // real root; null under --root.
    ::nicd::plugin::v1::Status read(const ::nicd::plugin::v1::DeviceRef& dev,
                                    ::nicd::plugin::sdk::RdmaStatsClient* rdma,
                                    ::nicd::plugin::sdk::Backoff& backoff,
                                    ::nicd::plugin::sdk::SampleBatchBuilder& out,
                                    HwCounterChanges& changes);

    // Why RDMA netlink failed for this device, once (empty after, and before any failure).
    std::string takeNetlinkRefusal() { return std::exchange(refusal_, {}); }
    // True until RDMA netlink failed for this device.
    bool netlinkUsable() const { return netlink_usable_; }

private:
    ::nicd::plugin::v1::Status fetch(const ::nicd::plugin::v1::DeviceRef& dev,
                                     ::nicd::plugin::sdk::RdmaStatsClient& rdma);
    ::nicd::plugin::v1::Status add(const ::nicd::plugin::v1::DeviceRef& dev,
                                   ::nicd::plugin::sdk::Backoff& backoff,
                                   ::nicd::plugin::sdk::SampleBatchBuilder& out,
                                   HwCounterChanges& changes);
    // The port's lifespan file, through the directory kept in dirs_ (the one readHwCounters
    // uses); a file that fails is left out and backed off as readHwCounters does.
    std::optional<uint64_t> readLifespan(const ::nicd::plugin::v1::DeviceRef& dev, uint32_t port,
                                         ::nicd::plugin::sdk::Backoff& backoff,
                                         HwCounterChanges& changes,
                                         ::nicd::plugin::v1::Status& first);

    GaugeTest gauge_;
    bool netlink_usable_ = true;
    std::string refusal_;
    HwCounterDirs dirs_;                                     // open hw_counters/ per port
    std::vector<::nicd::plugin::sdk::RdmaHwCounters> ports_; // the last replies, by port's place
};

} // namespace nicd::plugin::sdk
