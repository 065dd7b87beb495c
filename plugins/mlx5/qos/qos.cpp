// verifyQos / applyQos for one mlx5 port: DSCP trust and PFC on each of the port's netdevs
// (rtnetlink DCB, or the simulator's files under a simulated root), ECN for RoCE on the lossless
// priorities (MOFED's ecn/ sysfs tree), RoCE ToS in rdma_cm's configfs and, with MOFED, the
// device's traffic_class. No exception leaves these functions.
#include "qos/qos.hpp"

#include "qos/dcb_client.hpp"
#include "qos/dcb_settings.hpp"
#include "qos/dcb_sim_backend.hpp"
#include "qos/ecn_settings.hpp"
#include "qos/report_merge.hpp"
#include "qos/tos_settings.hpp"
#include "qos/trust_plan.hpp"

#include <algorithm>
#include <exception>
#include <memory>

namespace nicd::mlx5 {

namespace {

std::unique_ptr<DcbAccess> openDcb(pv1::IHost& host)
{
    if (host.simulated())
        return std::make_unique<SimDcb>(host.root());
    return std::make_unique<DcbClient>();
}

std::string portName(const pv1::DeviceRef& dev, const pv1::PortRef& port)
{
    return dev.ibdev + " port " + std::to_string(port.port);
}

std::vector<std::string> netdevsOf(const pv1::PortRef& port)
{
    std::vector<std::string> netdevs = port.netdevs;
    std::sort(netdevs.begin(), netdevs.end());
    netdevs.erase(std::unique(netdevs.begin(), netdevs.end()), netdevs.end());
    return netdevs;
}

void dcbReports(QosCall& call, const std::vector<std::string>& netdevs,
                std::vector<pv1::QosSettingReport>& out)
{
    if (netdevs.empty()) {
        auto s = pv1::Status::fail(pv1::Errc::NoDevice,
                                   portName(call.dev, call.port) + ": no netdev bound to the port");
        call.fail(s);
        out.push_back(
            {"trust", call.desired.trust_dscp ? "dscp" : "pcp", "", false, false, s.message});
        out.push_back({"pfc", "", "", false, false, s.message});
        return;
    }
    auto dcb = openDcb(call.host);
    std::vector<std::pair<std::string, pv1::QosSettingReport>> trust, pfc;
    for (const auto& nd : netdevs) {
        auto r = dcbSettings(call, *dcb, nd);
        trust.emplace_back(nd, std::move(r.trust));
        pfc.emplace_back(nd, std::move(r.pfc));
    }
    out.push_back(mergeReports(trust));
    out.push_back(mergeReports(pfc));
}

// After writing, a setting that still differs and has no error of its own gets one.
void flagUnconverged(QosCall& call, std::vector<pv1::QosSettingReport>& settings)
{
    for (auto& r : settings)
        if (!r.compliant && r.error.empty()) {
            r.error = portName(call.dev, call.port) + ": " + r.setting + " is still '" +
                      r.observed + "' after apply, wanted '" + r.desired + "'";
            call.fail(pv1::Status::fail(pv1::Errc::Io, r.error));
        }
}

pv1::Status run(pv1::IHost& host, const pv1::DeviceRef& dev, const pv1::PortRef& port,
                const pv1::QosDesired& desired, pv1::QosReport& out, bool apply) noexcept
{
    try {
        out.settings.clear();
        if (port.link_layer != "Ethernet")
            return pv1::Status::fail(pv1::Errc::NotSupported,
                                     portName(dev, port) + ": link layer '" + port.link_layer +
                                         "' has no RoCE QoS");
        QosCall call{host, dev, port, desired, apply};
        if (!pfcMask(desired.pfc_priorities))
            call.fail(
                pv1::Status::fail(pv1::Errc::InvalidArgument,
                                  portName(dev, port) + ": PFC priorities must be from 0 to 7"));
        const auto netdevs = netdevsOf(port);
        dcbReports(call, netdevs, out.settings);
        for (auto& r : ecnSettings(call, netdevs))
            out.settings.push_back(std::move(r));
        out.settings.push_back(roceTosSetting(call));
        if (auto tc = trafficClassSetting(call))
            out.settings.push_back(std::move(*tc));
        if (call.writes())
            flagUnconverged(call, out.settings);
        return call.first_error;
    } catch (const std::exception& e) {
        return pv1::Status::fail(pv1::Errc::Internal, portName(dev, port) + ": QoS: " + e.what());
    } catch (...) {
        return pv1::Status::fail(pv1::Errc::Internal, portName(dev, port) + ": QoS: unknown error");
    }
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
