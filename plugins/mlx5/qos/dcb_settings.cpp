#include "qos/dcb_settings.hpp"

#include "qos/trust_plan.hpp"

namespace nicd::mlx5 {

namespace {

namespace sdk = plugin::sdk;

// The reports for a state just read (nothing about changes yet).
DcbReports describe(const pv1::QosDesired& want, const dcb::DcbState& st)
{
    DcbReports r;
    r.trust.setting = "trust";
    r.trust.desired = describeTrustWanted(want.trust_dscp);
    r.trust.observed = describeTrust(st.apps);
    r.trust.compliant = trustCompliant(st.apps, want.trust_dscp);
    r.pfc = sdk::pfcReport(want, st);
    r.dcbx = st.dcbx;
    return r;
}

// Adds the missing default entries, then deletes what is left over. The DEL list is computed
// from a fresh read: on mlx5 an added entry replaces the old priority of its DSCP, so the stale
// entry is already gone (and deleting it would fail with ENOENT).
pv1::Status changeTrust(DcbAccess& dcb, const std::string& netdev, const TrustPlan& plan,
                        bool want_dscp)
{
    if (!plan.add.empty())
        if (auto s = dcb.set(netdev, std::nullopt, plan.add); !s)
            return s;
    if (plan.remove.empty())
        return pv1::Status::ok();
    dcb::DcbState now;
    if (auto s = dcb.get(netdev, now); !s)
        return s;
    auto left = planTrust(now.apps, want_dscp).remove;
    return left.empty() ? pv1::Status::ok() : dcb.del(netdev, left);
}

std::string trustChange(const TrustPlan& plan)
{
    std::string s;
    if (!plan.add.empty())
        s += std::to_string(plan.add.size()) + " DSCP APP entries added";
    if (!plan.remove.empty())
        s += (s.empty() ? "" : ", ") + std::to_string(plan.remove.size()) +
             " DSCP APP entries removed";
    return s;
}

} // namespace

DcbReports dcbSettings(QosCall& call, DcbAccess& dcb, const std::string& netdev)
{
    const auto& want = call.desired;
    dcb::DcbState before;
    if (auto s = dcb.get(netdev, before); !s) {
        call.fail(s);
        return sdk::unreadableDcb(describeTrustWanted(want.trust_dscp), want, s);
    }
    before.ifname = netdev;
    DcbReports r = describe(want, before);
    if (!call.apply)
        return r;

    sdk::DcbWrites done;
    if (auto plan = planTrust(before.apps, want.trust_dscp); !plan.empty())
        sdk::changeDcb(
            call,
            "netdev " + netdev + " trust " + r.trust.observed + " -> " + r.trust.desired + " (" +
                trustChange(plan) + ")",
            [&] { return changeTrust(dcb, netdev, plan, want.trust_dscp); }, done.trust_changed,
            done.trust_error);
    auto mask = pfcMask(want.pfc_priorities);
    if (mask && before.pfc && before.pfc->enabled != *mask)
        sdk::changeDcb(
            call, "netdev " + netdev + " PFC priorities " + r.pfc.observed + " -> " + r.pfc.desired,
            [&] { return dcb.set(netdev, planPfc(*before.pfc, *mask), {}); }, done.pfc_changed,
            done.pfc_error);
    if (!done.trust_changed && !done.pfc_changed)
        return r; // nothing written: what was read is what there is
    return sdk::readBackDcb(call, dcb, netdev, before, done,
                            [&](const dcb::DcbState& st) { return describe(want, st); });
}

} // namespace nicd::mlx5
