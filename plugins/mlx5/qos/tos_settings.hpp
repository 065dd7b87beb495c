// RoCE ToS of one port as two settings: "roce_tos" (rdma_cm's default, configfs) and
// "traffic_class" (MOFED's global tclass; only where its sysfs file exists).
#pragma once

#include "qos/qos_context.hpp"

#include <optional>

namespace nicd::mlx5 {

pv1::QosSettingReport roceTosSetting(QosCall& call);
// nullopt when the driver has no tc/<port>/traffic_class (inbox driver).
std::optional<pv1::QosSettingReport> trafficClassSetting(QosCall& call);

} // namespace nicd::mlx5
