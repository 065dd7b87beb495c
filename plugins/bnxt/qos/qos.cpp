// verifyQos / applyQos for one bnxt port: DSCP trust (DSCP APP entries) and PFC on each of the
// port's netdevs over IEEE DCB netlink (bnxt_dcb.c's dcbnl_ops; the simulator's files under a
// simulated root), unless the NIC firmware's DCBX agent owns them; RoCE ToS in rdma_cm's configfs
// (ib_core: the same as for every vendor); ECN and CNP settings as far as upstream shows them.
// The call's frame is the SDK's (nicd/plugin/sdk/qos_port.h).
#include "qos/qos.hpp"

#include "qos/congestion.hpp"
#include "qos/dcb_port.hpp"

#include <nicd/plugin/sdk/qos_port.h>
#include <nicd/plugin/sdk/roce_tos.h>

#include <string>

namespace nicd::bnxt {

namespace {

namespace sdk = plugin::sdk;

pv1::Status run(pv1::IHost& host, OwnerNotices& notices, const pv1::DeviceRef& dev,
                const pv1::PortRef& port, const pv1::QosDesired& desired, pv1::QosReport& out,
                bool apply) noexcept
{
    return sdk::runQos(host, dev, port, desired, out, apply,
                       [&notices](QosCall& call, std::vector<pv1::QosSettingReport>& settings) {
                           sdk::dcbReports(
                               call, sdk::portNetdevs(call.port),
                               [&](DcbAccess& dcb, const std::string& netdev) {
                                   return dcbPortSettings(call, dcb, netdev, notices);
                               },
                               settings);
                           for (auto& r : congestionSettings(call))
                               settings.push_back(std::move(r));
                           settings.push_back(sdk::roceTosSetting(call));
                       });
}

} // namespace

pv1::Status verifyQos(pv1::IHost& host, OwnerNotices& notices, const pv1::DeviceRef& dev,
                      const pv1::PortRef& port, const pv1::QosDesired& desired,
                      pv1::QosReport& out) noexcept
{
    return run(host, notices, dev, port, desired, out, false);
}

pv1::Status applyQos(pv1::IHost& host, OwnerNotices& notices, const pv1::DeviceRef& dev,
                     const pv1::PortRef& port, const pv1::QosDesired& desired,
                     pv1::QosReport& out) noexcept
{
    return run(host, notices, dev, port, desired, out, true);
}

} // namespace nicd::bnxt
