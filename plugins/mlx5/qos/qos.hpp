// RoCE QoS on one mlx5 port: DSCP trust and PFC through rtnetlink DCB, ECN for RoCE through
// MOFED's ecn/ tree, ToS through configfs. The steps the SDK's frame runs (sdk::runQos: the
// plugin base's verifyQos and applyQos).
#pragma once

#include <nicd/plugin/sdk/qos_port.h>

namespace nicd::mlx5 {

plugin::sdk::QosSteps qosSteps();

} // namespace nicd::mlx5
