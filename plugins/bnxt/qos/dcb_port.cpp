#include "qos/dcb_port.hpp"

#include "qos/dscp_apps.hpp"
#include "qos/ets_plan.hpp"

#include <nicd/plugin/sdk/pfc_plan.h>

#include <cerrno>

namespace nicd::bnxt {

namespace {

namespace sdk = plugin::sdk;

std::vector<dcb::App> wantedApps(const QosCall& call)
{
    return wantedDscpApps(call.desired, call.host.abiMinor() >= 2);
}

// The reports for a state just read (nothing about changes yet); `plan` is what would make its
// APP table the wanted one (planDscpApps).
DcbReports describe(const QosCall& call, const dcb::DcbState& st,
                    const std::vector<dcb::App>& wanted, const AppPlan& plan)
{
    DcbReports r;
    r.trust.setting = "trust";
    r.trust.desired = describeWantedTrust(wanted);
    r.trust.observed = describeTrust(st.apps, wanted);
    r.trust.compliant = plan.empty();
    r.pfc = sdk::pfcReport(call.desired, st);
    r.ets = etsReport(st, sdk::pfcMask(call.desired.pfc_priorities),
                      setEtsSetting(call.host.config(kSetEtsKey)));
    r.dcbx = st.dcbx;
    return r;
}

// bnxt_dcbnl_ieee_dscp_app_prep refuses a DSCP entry with -ENOTSUPP (524, kernel-internal) when
// the firmware has no DSCP-to-priority table; dcbnl_ieee_set returns the errno in one byte, 0xF4,
// which reads back as ENOMEM.
pv1::Status explainAppRefusal(const pv1::Status& s)
{
    if (s || s.sys_errno != ENOMEM)
        return s;
    return pv1::Status::fail(pv1::Errc::NotSupported,
                             s.message + "; from bnxt, status byte 0xF4 is ENOTSUPP (524): this "
                                         "function's firmware has no DSCP-to-priority table (a "
                                         "VF, or firmware older than HWRM 1.8.0)",
                             s.sys_errno);
}

pv1::Status changeTrust(DcbAccess& dcb, const std::string& netdev, const AppPlan& plan)
{
    if (!plan.remove.empty())
        if (auto s = dcb.del(netdev, plan.remove); !s)
            return s;
    if (!plan.add.empty())
        return explainAppRefusal(dcb.set(netdev, std::nullopt, plan.add));
    return pv1::Status::ok();
}

std::string trustChange(const AppPlan& plan)
{
    std::string s;
    if (!plan.remove.empty())
        s += std::to_string(plan.remove.size()) + " DSCP APP entries removed";
    if (!plan.add.empty())
        s += (s.empty() ? "" : ", ") + std::to_string(plan.add.size()) + " DSCP APP entries added";
    return s;
}

// PFC changed to `mask`, after `ets` when the port has none (unless SetEts=no: then refused).
pv1::Status changePfc(DcbAccess& dcb, const std::string& netdev, const dcb::DcbState& before,
                      const EtsPlan& ets, bool set_ets, uint8_t mask)
{
    if (!ets.error.empty())
        return pv1::Status::fail(pv1::Errc::NotSupported, "netdev " + netdev + ": " + ets.error);
    if (ets.set && !set_ets)
        return pv1::Status::fail(pv1::Errc::NotSupported,
                                 "netdev " + netdev +
                                     ": bnxt takes PFC only after ETS, the port has none, and "
                                     "[plugin:bnxt] SetEts=no leaves ETS alone: set an ETS, or "
                                     "SetEts=yes");
    if (ets.set)
        if (auto s = dcb.setEts(netdev, *ets.set); !s)
            return s;
    return dcb.set(netdev, sdk::planPfc(*before.pfc, mask), {});
}

} // namespace

DcbReports dcbPortSettings(QosCall& call, DcbAccess& dcb, const std::string& netdev,
                           OwnerNotices& notices)
{
    const auto wanted = wantedApps(call);
    dcb::DcbState before;
    if (auto s = dcb.get(netdev, before); !s) {
        call.fail(s);
        return sdk::unreadableDcb(describeWantedTrust(wanted), call.desired, s);
    }
    before.ifname = netdev;
    const auto plan = planDscpApps(before.apps, wanted);
    DcbReports r = describe(call, before, wanted, plan);
    if (auto line = notices.notice(netdev, before.dcbx))
        call.host.log(hostOwnsDcb(before.dcbx) ? pv1::Level::Info : pv1::Level::Warn, *line,
                      &call.dev);
    if (!hostOwnsDcb(before.dcbx)) {
        // Read, reported, never written: no failing write, no error returned for the call.
        for (auto* s : {&r.trust, &r.pfc, r.ets ? &*r.ets : nullptr})
            if (s && !s->compliant && s->error.empty())
                s->error = notHostOwned(netdev, *before.dcbx);
        return r;
    }
    if (!call.apply)
        return r;

    sdk::DcbWrites done;
    if (!plan.empty())
        sdk::changeDcb(
            call,
            "netdev " + netdev + " trust " + r.trust.observed + " -> " + r.trust.desired + " (" +
                trustChange(plan) + ")",
            [&] { return changeTrust(dcb, netdev, plan); }, done.trust_changed, done.trust_error);
    auto mask = sdk::pfcMask(call.desired.pfc_priorities);
    if (mask && before.pfc && before.pfc->enabled != *mask) {
        const auto ets = planEts(before.ets, *mask);
        const bool set_ets = setEtsSetting(call.host.config(kSetEtsKey));
        std::string what =
            "netdev " + netdev + " PFC priorities " + r.pfc.observed + " -> " + r.pfc.desired;
        if (ets.set && set_ets) // bnxt takes PFC only after ETS; the port has none
            what += " (ETS set first: " + describeEts(*ets.set) + ")";
        sdk::changeDcb(
            call, what, [&] { return changePfc(dcb, netdev, before, ets, set_ets, *mask); },
            done.pfc_changed, done.pfc_error);
        done.ets_changed = ets.set && set_ets;
    }
    if (!done.trust_changed && !done.pfc_changed)
        return r; // nothing written: what was read is what there is
    return sdk::readBackDcb(call, dcb, netdev, before, done, [&](const dcb::DcbState& st) {
        return describe(call, st, wanted, planDscpApps(st.apps, wanted));
    });
}

} // namespace nicd::bnxt
