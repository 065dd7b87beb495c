// The mlx5 plugin: claims devices bound to mlx5_core; reads their hw_counters (over RDMA netlink
// on a real root, else the files: hw_counter_source.hpp) and netdev statistics; provisions and
// verifies RoCE QoS; recognises mlx5 driver errors in kernel logs.
#include "counter_meanings.hpp"
#include "ethtool_text.hpp"
#include "hw_counter_source.hpp"
#include "hw_counters.hpp"
#include "kernel_patterns.hpp"
#include "kernel_reports.hpp"
#include "netdev_stats.hpp"
#include "qos/qos.hpp"

#include <nicd/plugin/backoff.h>
#include <nicd/plugin/declare.h>
#include <nicd/plugin/rdma_stats_client.h>
#include <nicd/plugin/sample_batch.h>

#include <map>
#include <memory>
#include <string>

namespace nicd::mlx5 {

namespace pv1 = ::nicd::plugin::v1;

class Mlx5Plugin final : public pv1::IPlugin {
public:
    explicit Mlx5Plugin(pv1::IHost& host) : host_(host) {}

    pv1::Status init() noexcept override { return pv1::Status::ok(); }

    bool claims(const pv1::DeviceRef& dev) const noexcept override
    {
        return dev.driver == "mlx5_core";
    }

    // The daemon's DropCounterAfter= as it is now: a reload detaches and attaches every device.
    pv1::Status attach(const pv1::DeviceRef&) noexcept override
    {
        drop_after_ = plugin::sdk::dropAfterSetting(host_.config(plugin::sdk::kDropAfterKey));
        return pv1::Status::ok();
    }

    void detach(const pv1::DeviceRef& dev) noexcept override { devices_.erase(dev.ibdev); }

    // ABI 1.0: the same read as pollBatch, as Samples.
    pv1::Status poll(const pv1::DeviceRef& dev, std::vector<pv1::Sample>& out) noexcept override
    {
        pv1::SampleBatch batch;
        pv1::Status s = pollBatch(dev, batch);
        try {
            auto samples = plugin::sdk::toSamples(batch);
            out.insert(out.end(), samples.begin(), samples.end());
        } catch (const std::exception& e) {
            return pv1::Status::fail(pv1::Errc::Internal, dev.ibdev + ": " + e.what());
        }
        return s;
    }

    pv1::Status pollBatch(const pv1::DeviceRef& dev, pv1::SampleBatch& out) noexcept override
    {
        try {
            auto& state = devices_.try_emplace(dev.ibdev, drop_after_).first->second;
            plugin::sdk::SampleBatchBuilder batch(out);
            batch.reserve(state.last_samples);
            HwCounterChanges changes;
            pv1::Status first = state.hw.read(dev, rdma(), state.backoff, batch, changes);
            if (auto why = state.hw.takeNetlinkRefusal(); !why.empty())
                log(pv1::Level::Info,
                    dev.ibdev +
                        ": hw_counters read from the files until the device is attached again: " +
                        why,
                    dev);
            for (const auto& why : changes.failed)
                log(pv1::Level::Warn, why + "; backing off", dev);
            for (const auto& path : changes.recovered)
                log(pv1::Level::Info, path + ": readable again", dev);
            for (const auto& why : changes.dropped)
                log(pv1::Level::Warn,
                    why + ": refused " + std::to_string(drop_after_) +
                        " reads in a row; dropped, not read again until nicd is reloaded or the "
                        "node reboots",
                    dev);
            for (const auto& port : dev.ports)
                for (const auto& netdev : port.netdevs) {
                    pv1::Status s = readNetdev(dev, port.port, netdev, state, batch);
                    if (!s && first)
                        first = std::move(s);
                }
            // How many files are dropped, for the daemon's nicd_dropped_files.
            if (size_t dropped = state.backoff.droppedCount())
                batch.add(plugin::sdk::kDaemonSource, 0, {}, plugin::sdk::kFilesDroppedName,
                          pv1::SampleKind::Gauge, dropped);
            batch.finish();
            state.last_samples = out.size();
            return first;
        } catch (const std::exception& e) {
            return pv1::Status::fail(pv1::Errc::Internal, dev.ibdev + ": " + e.what());
        }
    }

    pv1::Status verifyQos(const pv1::DeviceRef& dev, const pv1::PortRef& port,
                          const pv1::QosDesired& desired, pv1::QosReport& out) noexcept override
    {
        return mlx5::verifyQos(host_, dev, port, desired, out);
    }

    pv1::Status applyQos(const pv1::DeviceRef& dev, const pv1::PortRef& port,
                         const pv1::QosDesired& desired, pv1::QosReport& out) noexcept override
    {
        return mlx5::applyQos(host_, dev, port, desired, out);
    }

    // ABI < 1.4: a line without its origin. Never called: this nicd calls classifyKernelRecord,
    // and an older one refuses this plugin (its ABI minor is newer).
    bool classifyKernelLine(std::string_view, pv1::KernelLineMatch&) const noexcept override
    {
        return false;
    }

    bool classifyKernelRecord(const pv1::KernelRecord& rec,
                              pv1::KernelLineMatch& out) const noexcept override
    {
        return mlx5::classifyKernelRecord(rec, out);
    }

    bool classifyKernelReport(const pv1::KernelReport& report,
                              pv1::KernelLineMatch& out) const noexcept override
    {
        return mlx5::classifyKernelReport(report, out);
    }

    void describeLayout(const pv1::SampleLayout& layout,
                        std::vector<pv1::SeriesMeaning>& out) const noexcept override
    {
        try {
            describeCounters(layout, out);
        } catch (const std::exception&) {
            out.clear(); // out of memory: every series None, published but judged by name only
        }
    }

    void shutdown() noexcept override
    {
        devices_.clear();
        rdma_.reset();
    }

private:
    struct DeviceState {
        explicit DeviceState(uint32_t drop_after) : backoff(64, drop_after) {}
        plugin::sdk::Backoff backoff; // files and netdevs
        HwCounterSource hw;           // RDMA netlink or the hw_counters/ files
        std::map<std::string, std::unique_ptr<SimStatsFile>> sim_stats; // by netdev (--root)
        size_t last_samples = 0; // what the last poll gave, to size the next
    };

    // One netdev's statistics (source "ethtool"). A netdev without statistics (a bond, IPoIB
    // child) or one that just went away is not an error; a failing read is backed off like a
    // failing counter file.
    pv1::Status readNetdev(const pv1::DeviceRef& dev, uint32_t port, const std::string& netdev,
                           DeviceState& state, plugin::sdk::SampleBatchBuilder& out)
    {
        auto& backoff = state.backoff;
        auto key = [&netdev] { return "ethtool:" + netdev; }; // made only while some key fails
        if (backoff.anyFailing() && !backoff.shouldTry(key()))
            return pv1::Status::ok();
        pv1::Status s;
        if (host_.simulated()) {
            auto& file = state.sim_stats[netdev];
            if (!file)
                file = std::make_unique<SimStatsFile>(host_.root() + "/run/nicd-sim/ethtool/" +
                                                      netdev);
            std::string_view text;
            s = file->read(read_buf_, text);
            if (s) {
                plugin::sdk::SampleBatchBuilder::Run run(out, "ethtool", port, netdev,
                                                         pv1::SampleKind::Counter);
                addEthtoolText(text, run);
            }
        } else {
            s = readNetdevStats(host_.root(), false, netdev, stats_);
            if (s)
                for (const auto& [name, value] : stats_)
                    out.add("ethtool", port, netdev, name, pv1::SampleKind::Counter, value);
        }
        if (!s) {
            if (s.code == pv1::Errc::NotSupported || s.code == pv1::Errc::NoDevice)
                return pv1::Status::ok();
            if (backoff.failed(key()))
                log(pv1::Level::Warn, s.message + "; backing off", dev);
            return s;
        }
        if (backoff.anyFailing() && backoff.succeeded(key()))
            log(pv1::Level::Info, netdev + ": ethtool statistics readable again", dev);
        return pv1::Status::ok();
    }

    // The RDMA netlink client, on a real root only (netlink speaks to the real kernel, not to a
    // --root tree); its socket opens at the first request.
    plugin::sdk::RdmaStatsClient* rdma()
    {
        if (host_.simulated())
            return nullptr;
        if (!rdma_)
            rdma_ = std::make_unique<plugin::sdk::RdmaStatsClient>();
        return rdma_.get();
    }

    void log(pv1::Level level, const std::string& msg, const pv1::DeviceRef& dev)
    {
        host_.log(level, msg, &dev);
    }

    pv1::IHost& host_;
    std::string read_buf_; // the simulator's capture files are read into it (polls are serialized)
    Stats stats_;          // the ioctl's statistics, reused
    std::unique_ptr<plugin::sdk::RdmaStatsClient> rdma_; // shared by the devices
    std::map<std::string, DeviceState> devices_;         // by ibdev
    uint32_t drop_after_ = plugin::sdk::Backoff::kDropAfter;
};

} // namespace nicd::mlx5

NICD_DECLARE_PLUGIN(nicd::mlx5::Mlx5Plugin, "mlx5", "0.1.0")
