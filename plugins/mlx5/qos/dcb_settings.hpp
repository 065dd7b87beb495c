// DSCP trust and PFC on one netdev: read, compare with what is wanted, change only what differs
// (a PFC change flaps the link; a trust switch can reopen channels), read back.
#pragma once

#include <nicd/plugin/sdk/dcb_access.h>
#include <nicd/plugin/sdk/qos_call.h>
#include <nicd/plugin/sdk/qos_port.h>

#include <string>

namespace nicd::mlx5 {

namespace pv1 = ::nicd::plugin::v1;
namespace dcb = ::nicd::plugin::sdk::dcb;
using plugin::sdk::DcbAccess;
using plugin::sdk::DcbReports;
using plugin::sdk::QosCall;

DcbReports dcbSettings(QosCall& call, DcbAccess& dcb, const std::string& netdev);

} // namespace nicd::mlx5
