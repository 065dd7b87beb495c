// DSCP trust (DSCP APP entries) and PFC on one bnxt netdev: read; when the host owns the port's
// DCB and applying, change only what differs, in the order bnxt needs — stale DSCP entries
// removed, wanted ones added, ETS set when the port has none (ets_plan.hpp), then PFC — and read
// back. When the firmware's DCBX agent owns it (dcbx_owner.hpp), nothing is written: the settings
// report what was read, a setting that differs says who owns the port, and the owner is logged
// once per change.
#pragma once

#include "dcbx_owner.hpp"

#include <nicd/plugin/sdk/dcb_access.h>
#include <nicd/plugin/sdk/qos_call.h>
#include <nicd/plugin/sdk/qos_port.h>

#include <string>

namespace nicd::bnxt {

using plugin::sdk::DcbAccess;
using plugin::sdk::DcbReports;
using plugin::sdk::QosCall;

DcbReports dcbPortSettings(QosCall& call, DcbAccess& dcb, const std::string& netdev,
                           OwnerNotices& notices);

} // namespace nicd::bnxt
