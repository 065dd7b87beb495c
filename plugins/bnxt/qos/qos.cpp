// The steps of verifyQos / applyQos for one bnxt port: DSCP trust (DSCP APP entries) and PFC on
// each of the port's netdevs over IEEE DCB netlink (bnxt_dcb.c's dcbnl_ops; the simulator's files
// under a simulated root), unless the NIC firmware's DCBX agent owns them; RoCE ToS in rdma_cm's
// configfs (ib_core: the same as for every vendor); ECN and CNP settings as far as upstream shows
// them. The call's frame is the SDK's (nicd/plugin/sdk/qos_port.h).
#include "qos/qos.hpp"

#include "qos/congestion.hpp"
#include "qos/dcb_port.hpp"
#include "qos/dcbx_owner.hpp"

#include <nicd/plugin/sdk/roce_tos.h>

#include <memory>
#include <string>

namespace nicd::bnxt {

plugin::sdk::QosSteps qosSteps()
{
    namespace sdk = plugin::sdk;
    return [notices = std::make_shared<OwnerNotices>()](
               QosCall& call, std::vector<pv1::QosSettingReport>& settings) {
        sdk::dcbReports(
            call, sdk::portNetdevs(call.port),
            [&](DcbAccess& dcb, const std::string& netdev) {
                return dcbPortSettings(call, dcb, netdev, *notices);
            },
            settings);
        for (auto& r : congestionSettings(call))
            settings.push_back(std::move(r));
        settings.push_back(sdk::roceTosSetting(call));
    };
}

} // namespace nicd::bnxt
