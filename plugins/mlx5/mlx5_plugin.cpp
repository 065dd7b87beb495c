// The mlx5 plugin: claims devices bound to mlx5_core; reads their hw_counters and netdev
// statistics; provisions and verifies RoCE QoS; recognises mlx5 driver errors in kernel logs.
#include "hw_counters.hpp"
#include "kernel_patterns.hpp"
#include "netdev_stats.hpp"
#include "qos/qos.hpp"

#include <nicd/plugin/backoff.h>
#include <nicd/plugin/declare.h>

#include <map>
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

    pv1::Status attach(const pv1::DeviceRef&) noexcept override { return pv1::Status::ok(); }

    void detach(const pv1::DeviceRef& dev) noexcept override { devices_.erase(dev.ibdev); }

    pv1::Status poll(const pv1::DeviceRef& dev, std::vector<pv1::Sample>& out) noexcept override
    {
        try {
            auto& state = devices_[dev.ibdev];
            auto& backoff = state.backoff;
            const size_t before = out.size();
            out.reserve(before + state.last_samples); // no doubling: the peak memory is samples
            HwCounterChanges changes;
            pv1::Status first = readHwCounters(dev, backoff, state.hw_dirs, out, &changes);
            for (const auto& why : changes.failed)
                log(pv1::Level::Warn, why + "; backing off", dev);
            for (const auto& path : changes.recovered)
                log(pv1::Level::Info, path + ": readable again", dev);
            for (const auto& port : dev.ports)
                for (const auto& netdev : port.netdevs) {
                    pv1::Status s = readNetdev(dev, port.port, netdev, backoff, out);
                    if (!s && first)
                        first = std::move(s);
                }
            state.last_samples = out.size() - before;
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

    bool classifyKernelLine(std::string_view line,
                            pv1::KernelLineMatch& out) const noexcept override
    {
        return mlx5::classifyKernelLine(line, out);
    }

    void shutdown() noexcept override { devices_.clear(); }

private:
    // One netdev's statistics as samples (source "ethtool"). A netdev without statistics (a
    // bond, IPoIB child) or one that just went away is not an error; a failing read is backed
    // off like a failing counter file.
    pv1::Status readNetdev(const pv1::DeviceRef& dev, uint32_t port, const std::string& netdev,
                           plugin::sdk::Backoff& backoff, std::vector<pv1::Sample>& out)
    {
        const std::string key = "ethtool:" + netdev;
        if (!backoff.shouldTry(key))
            return pv1::Status::ok();
        Stats stats;
        pv1::Status s = readNetdevStats(host_.root(), host_.simulated(), netdev, stats);
        if (!s) {
            if (s.code == pv1::Errc::NotSupported || s.code == pv1::Errc::NoDevice)
                return pv1::Status::ok();
            if (backoff.failed(key))
                log(pv1::Level::Warn, s.message + "; backing off", dev);
            return s;
        }
        if (backoff.succeeded(key))
            log(pv1::Level::Info, netdev + ": ethtool statistics readable again", dev);
        for (auto& [name, value] : stats)
            out.push_back(
                {"ethtool", port, netdev, std::move(name), value, pv1::SampleKind::Counter});
        return pv1::Status::ok();
    }

    void log(pv1::Level level, const std::string& msg, const pv1::DeviceRef& dev)
    {
        host_.log(level, msg, &dev);
    }

    pv1::IHost& host_;
    struct DeviceState {
        plugin::sdk::Backoff backoff; // files and netdevs
        HwCounterDirs hw_dirs;        // open hw_counters/ per port
        size_t last_samples = 0;      // what the last poll gave, to size the next
    };
    std::map<std::string, DeviceState> devices_; // by ibdev
};

} // namespace nicd::mlx5

NICD_DECLARE_PLUGIN(nicd::mlx5::Mlx5Plugin, "mlx5", "0.1.0")
