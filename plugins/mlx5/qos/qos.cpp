// The steps of verifyQos / applyQos for one mlx5 port: DSCP trust and PFC on each of the port's
// netdevs (rtnetlink DCB, or the simulator's files under a simulated root), ECN for RoCE on the
// lossless priorities (MOFED's ecn/ sysfs tree), RoCE ToS in rdma_cm's configfs and, with MOFED,
// the device's traffic_class. The call's frame is the SDK's (nicd/plugin/sdk/qos_port.h).
#include "qos/qos.hpp"

#include "qos/dcb_settings.hpp"
#include "qos/ecn_settings.hpp"
#include "qos/tos_settings.hpp"

#include <nicd/plugin/sdk/roce_tos.h>

namespace nicd::mlx5 {

namespace {

namespace sdk = plugin::sdk;

void mlx5QosSteps(QosCall& call, std::vector<pv1::QosSettingReport>& settings)
{
    const auto netdevs = sdk::portNetdevs(call.port);
    sdk::dcbReports(
        call, netdevs,
        [&](DcbAccess& dcb, const std::string& netdev) { return dcbSettings(call, dcb, netdev); },
        settings);
    for (auto& r : ecnSettings(call, netdevs))
        settings.push_back(std::move(r));
    settings.push_back(sdk::roceTosSetting(call));
    if (auto tc = trafficClassSetting(call))
        settings.push_back(std::move(*tc));
}

} // namespace

plugin::sdk::QosSteps qosSteps()
{
    return mlx5QosSteps;
}

} // namespace nicd::mlx5
