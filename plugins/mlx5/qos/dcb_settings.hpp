// DSCP trust and PFC on one netdev: read, compare with what is wanted, change only what differs
// (a PFC change flaps the link; a trust switch can reopen channels), read back.
#pragma once

#include "qos/dcb_access.hpp"
#include "qos/qos_context.hpp"

#include <string>

namespace nicd::mlx5 {

struct DcbReports {
    pv1::QosSettingReport trust;
    pv1::QosSettingReport pfc;
};

DcbReports dcbSettings(QosCall& call, DcbAccess& dcb, const std::string& netdev);

} // namespace nicd::mlx5
