// The mlx5 plugin, as the SDK's plugin base reads it (nicd/plugin/sdk/vendor_plugin.h): claims
// devices bound to mlx5_core; reads their hw_counters (over RDMA netlink on a real root, else the
// files) and netdev statistics, and says what they mean (counter_meanings.hpp); provisions and
// verifies RoCE QoS (qos/qos.hpp); recognises mlx5 driver errors in kernel records
// (kernel_patterns.hpp) and soft lockups in its poll loop (kernel_reports.hpp); names its
// driver-ready file, what its devlink health reporters mean and its RoCE LAG devices
// (traits.hpp).
#include "counter_meanings.hpp"
#include "kernel_patterns.hpp"
#include "kernel_reports.hpp"
#include "qos/qos.hpp"
#include "traits.hpp"

#include <nicd/plugin/declare.h>
#include <nicd/plugin/sdk/vendor_plugin.h>

#include <array>
#include <string_view>

namespace nicd::mlx5 {

// ConnectX-4 and later, BlueField: the PCI function's driver.
constexpr std::array<std::string_view, 1> kDrivers{"mlx5_core"};

constexpr plugin::sdk::VendorTables kTables{
    .drivers = kDrivers,
    .gauge = nullptr, // mlx5_ib's hw_counters are all counts
    .meaning = meaningOf,
    .classify_record = classifyKernelRecord,
    .poll_loop = kPollLoop,
    .facts = kFacts,
    .is_lag = isLag,
    .qos_steps = qosSteps,
};

} // namespace nicd::mlx5

NICD_DECLARE_PLUGIN(nicd::plugin::sdk::TablePlugin<nicd::mlx5::kTables>, "mlx5", "0.1.0")
