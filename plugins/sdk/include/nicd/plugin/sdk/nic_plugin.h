// The part of an RDMA NIC's plugin every vendor writes alike: devices attached and detached, and
// polled through a CounterPoller (each port's hw_counters, each netdev's ethtool statistics,
// failing files backed off); no answer to the line-only classifier of ABI < 1.4. A vendor's
// plugin derives from it and adds what is its own: claims, QoS, kernel records and reports, the
// meanings of its counters.
#pragma once

#include <nicd/plugin/plugin.h>
#include <nicd/plugin/sdk/counter_poller.h>

#include <string_view>
#include <vector>

namespace nicd::plugin::sdk {

class NicPlugin : public v1::IPlugin {
public:
    // `gauge` names the driver's hw_counters that are levels, not counts (null: none).
    explicit NicPlugin(v1::IHost& host, GaugeTest gauge = nullptr)
        : host_(host), counters_(host, gauge)
    {
    }

    v1::Status init() noexcept override { return v1::Status::ok(); }

    v1::Status attach(const v1::DeviceRef&) noexcept override
    {
        counters_.attach();
        return v1::Status::ok();
    }

    void detach(const v1::DeviceRef& dev) noexcept override { counters_.detach(dev); }

    v1::Status poll(const v1::DeviceRef& dev, std::vector<v1::Sample>& out) noexcept override
    {
        return counters_.poll(dev, out);
    }

    v1::Status pollBatch(const v1::DeviceRef& dev, v1::SampleBatch& out) noexcept override
    {
        return counters_.pollBatch(dev, out);
    }

    void shutdown() noexcept override { counters_.shutdown(); }

    // ABI < 1.4: a line without its origin. Never called: nicd calls classifyKernelRecord, and an
    // older nicd refuses a plugin whose ABI minor is newer than its own.
    bool classifyKernelLine(std::string_view, v1::KernelLineMatch&) const noexcept override
    {
        return false;
    }

protected:
    ~NicPlugin() = default;

    v1::IHost& host_;

private:
    CounterPoller counters_; // hw_counters and ethtool statistics, every device
};

} // namespace nicd::plugin::sdk
