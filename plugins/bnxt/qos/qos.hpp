// RoCE QoS on a bnxt_en port: the steps the SDK's frame runs (sdk::runQos: the plugin base's
// verifyQos, which reads back and compares, and applyQos, which writes what differs).
#pragma once

#include <nicd/plugin/sdk/qos_port.h>

namespace nicd::bnxt {

// The steps, with their own OwnerNotices (qos/dcbx_owner.hpp: which netdevs' DCB owner was
// logged), kept from call to call for as long as the steps are (the plugin's life; the daemon
// never calls one plugin from two threads at once).
plugin::sdk::QosSteps qosSteps();

} // namespace nicd::bnxt
