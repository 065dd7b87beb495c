// The mlx5 plugin: claims devices bound to mlx5_core; reads their hw_counters and netdev
// statistics; provisions and verifies RoCE QoS; recognises mlx5 driver errors in kernel logs.
#include "ethtool_stats.hpp"
#include "hw_counters.hpp"
#include "kernel_patterns.hpp"
#include "qos/qos.hpp"

#include <nicd/plugin/declare.h>

#include <fstream>
#include <sstream>

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

    void detach(const pv1::DeviceRef&) noexcept override {}

    pv1::Status poll(const pv1::DeviceRef& dev, std::vector<pv1::Sample>& out) noexcept override
    {
        try {
            pv1::Status first = readHwCounters(dev, out);
            for (const auto& port : dev.ports)
                for (const auto& nd : port.netdevs) {
                    Stats stats;
                    pv1::Status s = readNetdevStats(nd, stats);
                    if (!s) {
                        if (s.code == pv1::Errc::NotSupported || s.code == pv1::Errc::NoDevice)
                            continue; // bonds, IPoIB or a netdev that just went away
                        if (first)
                            first = s;
                        continue;
                    }
                    for (auto& [name, v] : stats)
                        out.push_back({"ethtool", port.port, nd, std::move(name), v,
                                       pv1::SampleKind::Counter});
                }
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

    void shutdown() noexcept override {}

private:
    // Real node: the kernel's ioctl. Simulated node: the simulator's `ethtool -S` text file.
    pv1::Status readNetdevStats(const std::string& netdev, Stats& out)
    {
        if (!host_.simulated())
            return readEthtoolIoctl(netdev, out);
        std::ifstream in(host_.root() + "/run/nicd-sim/ethtool/" + netdev);
        if (!in)
            return pv1::Status::fail(pv1::Errc::NotSupported,
                                     netdev + ": no simulated ethtool statistics");
        std::stringstream ss;
        ss << in.rdbuf();
        out = parseEthtoolText(ss.str());
        return pv1::Status::ok();
    }

    pv1::IHost& host_;
};

} // namespace nicd::mlx5

NICD_DECLARE_PLUGIN(nicd::mlx5::Mlx5Plugin, "mlx5", "0.1.0")
