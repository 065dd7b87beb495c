#include <nicd/plugin/sdk/dcb_client.h>
#include <nicd/plugin/sdk/dcb_sim_backend.h>
#include <nicd/plugin/sdk/pfc_plan.h>
#include <nicd/plugin/sdk/qos_port.h>
#include <nicd/plugin/sdk/report_merge.h>

#include <fmt/format.h>

#include <algorithm>
#include <exception>
#include <memory>

namespace nicd::plugin::sdk {

namespace {

// After writing, a setting that still differs and has no error of its own gets one.
void flagUnconverged(QosCall& call, std::vector<v1::QosSettingReport>& settings)
{
    for (auto& r : settings)
        if (!r.compliant && r.error.empty()) {
            r.error = portName(call.dev, call.port) + ": " + r.setting + " is still '" +
                      r.observed + "' after apply, wanted '" + r.desired + "'";
            call.fail(v1::Status::fail(v1::Errc::Io, r.error));
        }
}

// The kernel's DCB (DcbClient) on a real root, the simulator's files (SimDcb) on a simulated one.
std::unique_ptr<DcbAccess> openDcb(v1::IHost& host)
{
    if (host.simulated())
        return std::make_unique<SimDcb>(host.root());
    return std::make_unique<DcbClient>();
}

} // namespace

std::string portName(const v1::DeviceRef& dev, const v1::PortRef& port)
{
    return dev.ibdev + " port " + std::to_string(port.port);
}

std::vector<std::string> portNetdevs(const v1::PortRef& port)
{
    std::vector<std::string> netdevs = port.netdevs;
    std::sort(netdevs.begin(), netdevs.end());
    netdevs.erase(std::unique(netdevs.begin(), netdevs.end()), netdevs.end());
    return netdevs;
}

void dcbReports(QosCall& call, const std::vector<std::string>& netdevs, const NetdevDcb& one,
                std::vector<v1::QosSettingReport>& out)
{
    if (netdevs.empty()) {
        auto s = v1::Status::fail(v1::Errc::NoDevice,
                                  portName(call.dev, call.port) + ": no netdev bound to the port");
        call.fail(s);
        out.push_back(
            {"trust", call.desired.trust_dscp ? "dscp" : "pcp", "", false, false, s.message});
        out.push_back({"pfc", "", "", false, false, s.message});
        return;
    }
    auto dcb = openDcb(call.host);
    std::vector<std::pair<std::string, v1::QosSettingReport>> trust, pfc, ets;
    for (const auto& nd : netdevs) {
        auto r = one(*dcb, nd);
        if (auto agent = firmwareLldpAgent(nd, r.dcbx); agent && call.lldp_agent.empty())
            call.lldp_agent = *agent;
        trust.emplace_back(nd, std::move(r.trust));
        pfc.emplace_back(nd, std::move(r.pfc));
        if (r.ets)
            ets.emplace_back(nd, std::move(*r.ets));
    }
    out.push_back(mergeReports(trust));
    out.push_back(mergeReports(pfc));
    if (!ets.empty())
        out.push_back(mergeReports(ets));
}

std::optional<std::string> firmwareLldpAgent(const std::string& netdev, std::optional<uint8_t> dcbx)
{
    constexpr uint8_t kDcbxHost = 0x01; // DCB_CAP_DCBX_HOST
    if (!dcbx || (*dcbx & kDcbxHost) != 0)
        return std::nullopt;
    return fmt::format("the NIC firmware runs DCBX on {} (DCBX mode 0x{:02x}, no HOST bit): its "
                       "own LLDP agent may take the switch's frames before the host's lldpd",
                       netdev, *dcbx);
}

v1::QosSettingReport pfcReport(const v1::QosDesired& desired, const dcb::DcbState& st)
{
    v1::QosSettingReport r;
    r.setting = "pfc";
    auto mask = pfcMask(desired.pfc_priorities);
    r.desired = mask ? describePfc(*mask) : "invalid";
    r.observed = st.pfc ? describePfc(st.pfc->enabled) : "unknown";
    r.compliant = mask && st.pfc && st.pfc->enabled == *mask;
    if (!mask)
        r.error = "PFC priorities must be from 0 to 7";
    else if (!st.pfc)
        r.error = "netdev " + st.ifname + ": the driver reports no PFC configuration";
    return r;
}

DcbReports unreadableDcb(const std::string& trust_desired, const v1::QosDesired& desired,
                         const v1::Status& failure)
{
    DcbReports r;
    r.trust = {"trust", trust_desired, "", false, false, failure.message};
    r.pfc = pfcReport(desired, {});
    r.pfc.observed.clear();
    r.pfc.error = failure.message;
    return r;
}

void changeDcb(QosCall& call, const std::string& what, const std::function<v1::Status()>& write,
               bool& changed, std::string& error)
{
    call.logChange(what);
    changed = true;
    if (!call.writes())
        return;
    if (auto s = write(); !s) {
        call.fail(s);
        error = s.message;
    }
}

DcbReports readBackDcb(QosCall& call, DcbAccess& dcb, const std::string& netdev,
                       const dcb::DcbState& before, const DcbWrites& writes,
                       const DescribeDcb& describe)
{
    dcb::DcbState after = before;
    DcbReports back;
    if (!call.writes()) {
        back = describe(after);
        back.dcbx = after.dcbx;
    } else if (auto s = dcb.get(netdev, after); !s) {
        call.fail(s);
        back = unreadableDcb(describe(before).trust.desired, call.desired, s);
    } else {
        after.ifname = netdev;
        back = describe(after);
        back.dcbx = after.dcbx;
        if (!writes.trust_error.empty())
            back.trust.error = writes.trust_error;
        if (!writes.pfc_error.empty())
            back.pfc.error = writes.pfc_error;
    }
    back.trust.changed = writes.trust_changed;
    back.pfc.changed = writes.pfc_changed;
    if (back.ets)
        back.ets->changed = writes.ets_changed;
    return back;
}

v1::Status runQos(v1::IHost& host, const v1::DeviceRef& dev, const v1::PortRef& port,
                  const v1::QosDesired& desired, v1::QosReport& out, bool apply,
                  const QosSteps& steps) noexcept
{
    try {
        out.settings.clear();
        if (port.link_layer != "Ethernet")
            return v1::Status::fail(v1::Errc::NotSupported, portName(dev, port) + ": link layer '" +
                                                                port.link_layer +
                                                                "' has no RoCE QoS");
        QosCall call{host, dev, port, desired, apply};
        if (!pfcMask(desired.pfc_priorities))
            call.fail(
                v1::Status::fail(v1::Errc::InvalidArgument,
                                 portName(dev, port) + ": PFC priorities must be from 0 to 7"));
        steps(call, out.settings);
        if (call.writes())
            flagUnconverged(call, out.settings);
        if (host.abiMinor() >= 8)
            out.lldp_agent = call.lldp_agent;
        return call.first_error;
    } catch (const std::exception& e) {
        return v1::Status::fail(v1::Errc::Internal, portName(dev, port) + ": QoS: " + e.what());
    } catch (...) {
        return v1::Status::fail(v1::Errc::Internal, portName(dev, port) + ": QoS: unknown error");
    }
}

} // namespace nicd::plugin::sdk
