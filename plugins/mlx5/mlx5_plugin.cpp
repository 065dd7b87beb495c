// The mlx5 plugin: claims devices bound to mlx5_core; reads their hw_counters (over RDMA netlink
// on a real root, else the files: nicd/plugin/sdk/hw_counter_source.h) and netdev statistics;
// provisions and verifies RoCE QoS; recognises mlx5 driver errors in kernel logs; says what its
// counters mean (counter_meanings.hpp); names its driver-ready file, what its devlink health
// reporters mean and its RoCE LAG devices (traits.hpp).
#include "counter_meanings.hpp"
#include "kernel_patterns.hpp"
#include "kernel_reports.hpp"
#include "qos/qos.hpp"
#include "traits.hpp"

#include <nicd/plugin/declare.h>
#include <nicd/plugin/sdk/nic_plugin.h>

namespace nicd::mlx5 {

namespace pv1 = ::nicd::plugin::v1;

// Devices attached, detached and polled as sdk::NicPlugin does for every RDMA NIC.
class Mlx5Plugin final : public plugin::sdk::NicPlugin {
public:
    explicit Mlx5Plugin(pv1::IHost& host) : NicPlugin(host) {}

    bool claims(const pv1::DeviceRef& dev) const noexcept override
    {
        return dev.driver == "mlx5_core";
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
        } catch (...) {
            out.clear(); // out of memory: every series None, published but judged by name only
        }
    }

    void describePlugin(pv1::PluginTraits& out) const noexcept override
    {
        try {
            mlx5::describePlugin(out);
        } catch (...) {
            out = {}; // out of memory: no ready file, reporters read by their common names
        }
    }

    void describeDevice(const pv1::DeviceRef& dev, pv1::DeviceTraits& out) const noexcept override
    {
        out.lag = mlx5::isLag(dev);
    }
};

} // namespace nicd::mlx5

NICD_DECLARE_PLUGIN(nicd::mlx5::Mlx5Plugin, "mlx5", "0.1.0")
