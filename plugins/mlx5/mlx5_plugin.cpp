// The mlx5 plugin: claims devices bound to mlx5_core; reads their hw_counters (over RDMA netlink
// on a real root, else the files: nicd/plugin/hw_counter_source.h) and netdev statistics;
// provisions and verifies RoCE QoS; recognises mlx5 driver errors in kernel logs.
#include "kernel_patterns.hpp"
#include "kernel_reports.hpp"
#include "qos/qos.hpp"

#include <nicd/plugin/counter_poller.h>
#include <nicd/plugin/declare.h>

namespace nicd::mlx5 {

namespace pv1 = ::nicd::plugin::v1;

class Mlx5Plugin final : public pv1::IPlugin {
public:
    explicit Mlx5Plugin(pv1::IHost& host) : host_(host), counters_(host) {}

    pv1::Status init() noexcept override { return pv1::Status::ok(); }

    bool claims(const pv1::DeviceRef& dev) const noexcept override
    {
        return dev.driver == "mlx5_core";
    }

    pv1::Status attach(const pv1::DeviceRef&) noexcept override
    {
        counters_.attach();
        return pv1::Status::ok();
    }

    void detach(const pv1::DeviceRef& dev) noexcept override { counters_.detach(dev); }

    pv1::Status poll(const pv1::DeviceRef& dev, std::vector<pv1::Sample>& out) noexcept override
    {
        return counters_.poll(dev, out);
    }

    pv1::Status pollBatch(const pv1::DeviceRef& dev, pv1::SampleBatch& out) noexcept override
    {
        return counters_.pollBatch(dev, out);
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

    void shutdown() noexcept override { counters_.shutdown(); }

private:
    pv1::IHost& host_;
    plugin::sdk::CounterPoller counters_; // hw_counters and ethtool statistics, every device
};

} // namespace nicd::mlx5

NICD_DECLARE_PLUGIN(nicd::mlx5::Mlx5Plugin, "mlx5", "0.1.0")
