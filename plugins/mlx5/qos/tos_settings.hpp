// MOFED's RoCE ToS of one port, the setting "traffic_class" (the global tclass; only where its
// sysfs file exists). rdma_cm's default, "roce_tos", is the SDK's (nicd/plugin/sdk/roce_tos.h).
#pragma once

#include <nicd/plugin/sdk/qos_call.h>

#include <optional>

namespace nicd::mlx5 {

namespace pv1 = ::nicd::plugin::v1;
using plugin::sdk::QosCall;

// nullopt when the driver has no tc/<port>/traffic_class (inbox driver).
std::optional<pv1::QosSettingReport> trafficClassSetting(QosCall& call);

} // namespace nicd::mlx5
