// A plugin's counter reads, for every device it manages: each port's hw_counters (RDMA netlink on
// a real root, else the files: hw_counter_source.h) and each netdev's statistics (source
// "ethtool": the ioctl on a real root, the simulator's `ethtool -S` text under --root:
// netdev_stats.h), with failing files and netdevs backed off and dropped as DropCounterAfter=
// says (backoff.h), and every change of state logged through the host. What IPlugin::poll and
// pollBatch do for an RDMA NIC whose driver has hw_counters and a netdev: mlx5 and bnxt both.
#pragma once

#include <nicd/plugin/plugin.h>
#include <nicd/plugin/sdk/backoff.h>
#include <nicd/plugin/sdk/ethtool_stats.h>
#include <nicd/plugin/sdk/hw_counter_source.h>
#include <nicd/plugin/sdk/netdev_stats.h>
#include <nicd/plugin/sdk/rdma_stats_client.h>
#include <nicd/plugin/sdk/sample_batch.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace nicd::plugin::sdk {

class CounterPoller {
public:
    // `gauge` names the driver's hw_counters that are levels, not counts (null: none).
    explicit CounterPoller(v1::IHost& host, GaugeTest gauge = nullptr) : host_(host), gauge_(gauge)
    {
    }

    // IPlugin::attach: takes the daemon's DropCounterAfter= as it is now (a reload detaches and
    // attaches every device).
    void attach();
    // IPlugin::detach: forgets the device's files, backoff and netlink state.
    void detach(const v1::DeviceRef& dev) { devices_.erase(dev.ibdev); }
    // IPlugin::pollBatch and poll (ABI 1.0: the same read, as Samples). Never throw.
    v1::Status pollBatch(const v1::DeviceRef& dev, v1::SampleBatch& out) noexcept;
    v1::Status poll(const v1::DeviceRef& dev, std::vector<v1::Sample>& out) noexcept;
    // IPlugin::shutdown.
    void shutdown()
    {
        devices_.clear();
        rdma_.reset();
    }

private:
    struct DeviceState {
        DeviceState(uint32_t drop_after, GaugeTest gauge) : backoff(64, drop_after), hw(gauge) {}
        Backoff backoff;    // files and netdevs
        HwCounterSource hw; // RDMA netlink or the hw_counters/ files
        std::map<std::string, std::unique_ptr<SimStatsFile>> sim_stats; // by netdev (--root)
        size_t last_samples = 0; // what the last poll gave, to size the next
    };

    v1::Status readNetdev(const v1::DeviceRef& dev, uint32_t port, const std::string& netdev,
                          DeviceState& state, SampleBatchBuilder& out);
    RdmaStatsClient* rdma();
    void log(v1::Level level, const std::string& msg, const v1::DeviceRef& dev)
    {
        host_.log(level, msg, &dev);
    }

    v1::IHost& host_;
    GaugeTest gauge_;
    std::string read_buf_; // the simulator's capture files are read into it (polls are serialized)
    Stats stats_;          // the ioctl's statistics, reused
    std::unique_ptr<RdmaStatsClient> rdma_;      // shared by the devices
    std::map<std::string, DeviceState> devices_; // by ibdev
    uint32_t drop_after_ = Backoff::kDropAfter;
};

} // namespace nicd::plugin::sdk
