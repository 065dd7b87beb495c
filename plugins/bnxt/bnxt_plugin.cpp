// The bnxt plugin, as the SDK's plugin base reads it (nicd/plugin/sdk/vendor_plugin.h): claims
// RDMA devices of Broadcom NetXtreme-E/Thor functions (bnxt_en, with bnxt_re on top); reads
// bnxt_re's hw_counters (its levels as gauges) and bnxt_en's ethtool statistics and says what
// they mean (counter_meanings.hpp); provisions and verifies RoCE QoS (qos/qos.hpp); recognises
// bnxt driver errors in kernel records (bnxt_kernel_lines.hpp) and soft lockups in its poll loops
// (bnxt_kernel_reports.hpp); says what its devlink health reporters mean (bnxt_traits.hpp).
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
#include <nicd/plugin/sdk/vendor_plugin.h>

#include <array>
#include <string_view>

namespace nicd::bnxt {

// The PCI function's driver (the daemon's DeviceRef.driver): bnxt_en, whose auxiliary device
// bnxt_en.rdma.N bnxt_re binds to (bnxt_ulp.c bnxt_rdma_aux_device_init), while the IB device's
// parent stays the PCI function (bnxt_re main.c bnxt_re_register_ib). VFs are claimed too: the
// daemon attaches them but never provisions them (their device/physfn). Broadcom's next driver
// pair, bnge/bng_en, is another plugin's.
constexpr std::array<std::string_view, 1> kDrivers{"bnxt_en"};

constexpr plugin::sdk::VendorTables kTables{
    .drivers = kDrivers,
    .gauge = isGauge,
    .meaning = meaningOf,
    .classify_record = classifyKernelRecord,
    .poll_loop = kPollLoop,
    .facts = kFacts,
    .is_lag = nullptr, // no RoCE LAG device upstream
    .qos_steps = qosSteps,
};

// The keys of [plugin:bnxt] besides Enabled= (ABI 1.7: nicd checks them before creating it).
constexpr nicd_plugin_setting_v1 kSettings[] = {
    {kSetEtsKey, "bool",
     "set ETS on a port that has none before PFC, which bnxt takes only after ETS: the PFC "
     "priorities on traffic class 1, the others on 0, 50% each (default yes); no: leave ETS "
     "alone, and PFC fails on a port without one"},
    {nullptr, nullptr, nullptr}};

} // namespace nicd::bnxt

NICD_DECLARE_PLUGIN_WITH_SETTINGS(nicd::plugin::sdk::TablePlugin<nicd::bnxt::kTables>, "bnxt",
                                  "0.1.0", nicd::bnxt::kSettings)
