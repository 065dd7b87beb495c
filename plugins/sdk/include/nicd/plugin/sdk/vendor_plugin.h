// The SDK's plugin base: every IPlugin virtual implemented from a vendor's tables
// (vendor_tables.h). Devices are attached, detached and polled through a CounterPoller (each
// port's hw_counters, each netdev's ethtool statistics, failing files backed off), as every RDMA
// NIC's plugin does; claims, QoS, kernel records and reports, counter meanings and traits come
// from the tables. A vendor's plugin is
//     NICD_DECLARE_PLUGIN(nicd::plugin::sdk::TablePlugin<kTables>, "name", "1.0.0")
// (declare.h), or a class of its own derived from VendorPlugin where it needs more.
#pragma once

#include <nicd/plugin/plugin.h>
#include <nicd/plugin/sdk/counter_poller.h>
#include <nicd/plugin/sdk/vendor_tables.h>

#include <string_view>
#include <vector>

namespace nicd::plugin::sdk {

class VendorPlugin : public v1::IPlugin {
public:
    // `tables` must outlive the plugin (a vendor's are constants).
    VendorPlugin(v1::IHost& host, const VendorTables& tables);

    v1::Status init() noexcept override { return v1::Status::ok(); }
    bool claims(const v1::DeviceRef& dev) const noexcept override;
    v1::Status attach(const v1::DeviceRef&) noexcept override;
    void detach(const v1::DeviceRef& dev) noexcept override { counters_.detach(dev); }
    v1::Status poll(const v1::DeviceRef& dev, std::vector<v1::Sample>& out) noexcept override
    {
        return counters_.poll(dev, out);
    }
    v1::Status pollBatch(const v1::DeviceRef& dev, v1::SampleBatch& out) noexcept override
    {
        return counters_.pollBatch(dev, out);
    }
    v1::Status verifyQos(const v1::DeviceRef& dev, const v1::PortRef& port,
                         const v1::QosDesired& desired, v1::QosReport& out) noexcept override;
    v1::Status applyQos(const v1::DeviceRef& dev, const v1::PortRef& port,
                        const v1::QosDesired& desired, v1::QosReport& out) noexcept override;
    // ABI < 1.4: a line without its origin. Never called: nicd calls classifyKernelRecord, and an
    // older nicd refuses a plugin whose ABI minor is newer than its own.
    bool classifyKernelLine(std::string_view, v1::KernelLineMatch&) const noexcept override
    {
        return false;
    }
    void shutdown() noexcept override { counters_.shutdown(); }
    bool classifyKernelRecord(const v1::KernelRecord& rec,
                              v1::KernelLineMatch& out) const noexcept override;
    bool classifyKernelReport(const v1::KernelReport& report,
                              v1::KernelLineMatch& out) const noexcept override;
    void describeLayout(const v1::SampleLayout& layout,
                        std::vector<v1::SeriesMeaning>& out) const noexcept override;
    void describePlugin(v1::PluginTraits& out) const noexcept override;
    void describeDevice(const v1::DeviceRef& dev, v1::DeviceTraits& out) const noexcept override;

protected:
    ~VendorPlugin() = default;

    v1::IHost& host_;
    const VendorTables& tables_;

private:
    v1::Status runQos(const v1::DeviceRef& dev, const v1::PortRef& port,
                      const v1::QosDesired& desired, v1::QosReport& out, bool apply) noexcept;

    CounterPoller counters_; // hw_counters and ethtool statistics, every device
    QosSteps qos_;           // the tables' steps, made once; empty: QoS NotSupported
};

// The plugin class NICD_DECLARE_PLUGIN takes for a vendor that is its tables alone.
template <const VendorTables& Tables> class TablePlugin final : public VendorPlugin {
public:
    explicit TablePlugin(v1::IHost& host) : VendorPlugin(host, Tables) {}
};

} // namespace nicd::plugin::sdk
