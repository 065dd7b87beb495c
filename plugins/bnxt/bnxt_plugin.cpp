// The bnxt plugin: claims RDMA devices of Broadcom NetXtreme-E/Thor functions (bnxt_en, with
// bnxt_re on top); reads bnxt_re's hw_counters and bnxt_en's ethtool statistics and says what
// they mean (counter_meanings.hpp); provisions and verifies RoCE QoS (qos/qos.hpp); recognises
// bnxt driver errors in kernel logs; says what its devlink health reporters mean
// (bnxt_traits.hpp).
//
// The counters need no freshness check of their own that nicd could make cheaply: bnxt_re stops
// refreshing its error and ext counters for good after one failed firmware query
// (hw_counters.c bnxt_re_ib_get_hw_stats clears BNXT_RE_FLAG_ISSUE_ROCE_STATS), and says so
// nowhere but in the values, which then stay as they were.
#include "bnxt_kernel_lines.hpp"
#include "bnxt_kernel_reports.hpp"
#include "bnxt_traits.hpp"
#include "counter_meanings.hpp"
#include "qos/ets_plan.hpp"
#include "qos/qos.hpp"

#include <nicd/plugin/declare.h>
#include <nicd/plugin/sdk/nic_plugin.h>

namespace nicd::bnxt {

// Devices attached, detached and polled as sdk::NicPlugin does for every RDMA NIC, bnxt_re's
// levels (active_qps) as gauges.
class BnxtPlugin final : public plugin::sdk::NicPlugin {
public:
    explicit BnxtPlugin(pv1::IHost& host) : NicPlugin(host, bnxt::isGauge) {}

    // The PCI function's driver (the daemon's DeviceRef.driver): bnxt_en, whose auxiliary device
    // bnxt_en.rdma.N bnxt_re binds to (bnxt_ulp.c bnxt_rdma_aux_device_init), while the IB
    // device's parent stays the PCI function (bnxt_re main.c bnxt_re_register_ib). VFs are
    // claimed too: the daemon attaches them but never provisions them (their device/physfn).
    // Broadcom's next driver pair, bnge/bng_en, is another plugin's.
    bool claims(const pv1::DeviceRef& dev) const noexcept override
    {
        return dev.driver == "bnxt_en";
    }

    void describeLayout(const pv1::SampleLayout& layout,
                        std::vector<pv1::SeriesMeaning>& out) const noexcept override
    {
        try {
            bnxt::describeLayout(layout, out);
        } catch (...) {
            out.clear(); // every series None
        }
    }

    void describePlugin(pv1::PluginTraits& out) const noexcept override
    {
        try {
            bnxt::describePlugin(out);
        } catch (...) {
            out = {}; // out of memory: reporters read by their common names
        }
    }

    pv1::Status verifyQos(const pv1::DeviceRef& dev, const pv1::PortRef& port,
                          const pv1::QosDesired& desired, pv1::QosReport& out) noexcept override
    {
        return bnxt::verifyQos(host_, owner_notices_, dev, port, desired, out);
    }

    pv1::Status applyQos(const pv1::DeviceRef& dev, const pv1::PortRef& port,
                         const pv1::QosDesired& desired, pv1::QosReport& out) noexcept override
    {
        return bnxt::applyQos(host_, owner_notices_, dev, port, desired, out);
    }

    bool classifyKernelRecord(const pv1::KernelRecord& rec,
                              pv1::KernelLineMatch& out) const noexcept override
    {
        return bnxt::classifyKernelRecord(rec, out);
    }

    bool classifyKernelReport(const pv1::KernelReport& report,
                              pv1::KernelLineMatch& out) const noexcept override
    {
        return bnxt::classifyKernelReport(report, out);
    }

private:
    OwnerNotices owner_notices_; // which netdevs' DCB owner was logged (qos/dcbx_owner.hpp)
};

// The keys of [plugin:bnxt] besides Enabled= (ABI 1.7: nicd checks them before creating it).
constexpr nicd_plugin_setting_v1 kSettings[] = {
    {kSetEtsKey, "bool",
     "set ETS on a port that has none before PFC, which bnxt takes only after ETS: the PFC "
     "priorities on traffic class 1, the others on 0, 50% each (default yes); no: leave ETS "
     "alone, and PFC fails on a port without one"},
    {nullptr, nullptr, nullptr}};

} // namespace nicd::bnxt

NICD_DECLARE_PLUGIN_WITH_SETTINGS(nicd::bnxt::BnxtPlugin, "bnxt", "0.1.0", nicd::bnxt::kSettings)
