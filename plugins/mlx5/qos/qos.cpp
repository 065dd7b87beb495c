// verifyQos / applyQos for one mlx5 port: DSCP trust and PFC on each of the port's netdevs
// (rtnetlink DCB, or the simulator's files under a simulated root), ECN for RoCE on the lossless
// priorities (MOFED's ecn/ sysfs tree), RoCE ToS in rdma_cm's configfs and, with MOFED, the
// device's traffic_class. The call's frame is the SDK's (nicd/plugin/sdk/qos_port.h).
#include "qos/qos.hpp"

#include "qos/dcb_settings.hpp"
#include "qos/ecn_settings.hpp"
#include "qos/tos_settings.hpp"

#include <nicd/plugin/sdk/qos_port.h>
#include <nicd/plugin/sdk/roce_tos.h>

namespace nicd::mlx5 {

namespace {

namespace sdk = plugin::sdk;

pv1::Status run(pv1::IHost& host, const pv1::DeviceRef& dev, const pv1::PortRef& port,
                const pv1::QosDesired& desired, pv1::QosReport& out, bool apply) noexcept
{
    return sdk::runQos(host, dev, port, desired, out, apply,
                       [](QosCall& call, std::vector<pv1::QosSettingReport>& settings) {
                           const auto netdevs = sdk::portNetdevs(call.port);
                           sdk::dcbReports(
                               call, netdevs,
                               [&](DcbAccess& dcb, const std::string& netdev) {
                                   return dcbSettings(call, dcb, netdev);
                               },
                               settings);
                           for (auto& r : ecnSettings(call, netdevs))
                               settings.push_back(std::move(r));
                           settings.push_back(sdk::roceTosSetting(call));
                           if (auto tc = trafficClassSetting(call))
                               settings.push_back(std::move(*tc));
                       });
}

} // namespace

pv1::Status verifyQos(pv1::IHost& host, const pv1::DeviceRef& dev, const pv1::PortRef& port,
                      const pv1::QosDesired& desired, pv1::QosReport& out) noexcept
{
    return run(host, dev, port, desired, out, false);
}

pv1::Status applyQos(pv1::IHost& host, const pv1::DeviceRef& dev, const pv1::PortRef& port,
                     const pv1::QosDesired& desired, pv1::QosReport& out) noexcept
{
    return run(host, dev, port, desired, out, true);
}

} // namespace nicd::mlx5
