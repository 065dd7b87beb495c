// The SDK's plugin base (vendor_plugin.h): IPlugin answered from a vendor's tables.
#include <nicd/plugin/sdk/vendor_plugin.h>

#include <algorithm>

namespace nicd::plugin::sdk {

VendorPlugin::VendorPlugin(v1::IHost& host, const VendorTables& tables)
    : host_(host), tables_(tables), counters_(host, tables.gauge),
      qos_(tables.qos_steps != nullptr ? tables.qos_steps() : QosSteps{})
{
}

bool VendorPlugin::claims(const v1::DeviceRef& dev) const noexcept
{
    return std::find(tables_.drivers.begin(), tables_.drivers.end(), dev.driver) !=
           tables_.drivers.end();
}

v1::Status VendorPlugin::attach(const v1::DeviceRef&) noexcept
{
    counters_.attach();
    return v1::Status::ok();
}

v1::Status VendorPlugin::runQos(const v1::DeviceRef& dev, const v1::PortRef& port,
                                const v1::QosDesired& desired, v1::QosReport& out,
                                bool apply) noexcept
{
    if (!qos_) {
        try {
            return v1::Status::fail(v1::Errc::NotSupported,
                                    portName(dev, port) + ": the plugin sets no QoS");
        } catch (...) {
            return v1::Status{v1::Errc::NotSupported, 0, {}};
        }
    }
    return sdk::runQos(host_, dev, port, desired, out, apply, qos_);
}

v1::Status VendorPlugin::verifyQos(const v1::DeviceRef& dev, const v1::PortRef& port,
                                   const v1::QosDesired& desired, v1::QosReport& out) noexcept
{
    return runQos(dev, port, desired, out, false);
}

v1::Status VendorPlugin::applyQos(const v1::DeviceRef& dev, const v1::PortRef& port,
                                  const v1::QosDesired& desired, v1::QosReport& out) noexcept
{
    return runQos(dev, port, desired, out, true);
}

bool VendorPlugin::classifyKernelRecord(const v1::KernelRecord& rec,
                                        v1::KernelLineMatch& out) const noexcept
{
    return tables_.classify_record != nullptr && tables_.classify_record(rec, out);
}

bool VendorPlugin::classifyKernelReport(const v1::KernelReport& report,
                                        v1::KernelLineMatch& out) const noexcept
{
    return !tables_.poll_loop.frames.empty() && classifySoftLockup(report, tables_.poll_loop, out);
}

void VendorPlugin::describeLayout(const v1::SampleLayout& layout,
                                  std::vector<v1::SeriesMeaning>& out) const noexcept
{
    if (tables_.meaning == nullptr)
        return;
    try {
        describeSeries(layout, tables_.meaning, out);
    } catch (...) {
        out.clear(); // out of memory: every series None, published but judged by name only
    }
}

void VendorPlugin::describePlugin(v1::PluginTraits& out) const noexcept
{
    try {
        describeFacts(tables_.facts, out);
    } catch (...) {
        out = {}; // out of memory: no ready file, reporters read by their common names
    }
}

void VendorPlugin::describeDevice(const v1::DeviceRef& dev, v1::DeviceTraits& out) const noexcept
{
    if (tables_.is_lag != nullptr)
        out.lag = tables_.is_lag(dev);
}

} // namespace nicd::plugin::sdk
