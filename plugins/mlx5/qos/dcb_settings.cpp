#include "qos/dcb_settings.hpp"

#include "qos/trust_plan.hpp"

namespace nicd::mlx5 {

namespace {

std::string pfcWanted(const pv1::QosDesired& d)
{
    auto mask = pfcMask(d.pfc_priorities);
    return mask ? describePfc(*mask) : "invalid";
}

// The reports for a state just read (nothing about changes yet).
DcbReports describe(const pv1::QosDesired& want, const dcb::DcbState& st)
{
    DcbReports r;
    r.trust.setting = "trust";
    r.trust.desired = describeTrustWanted(want.trust_dscp);
    r.trust.observed = describeTrust(st.apps);
    r.trust.compliant = trustCompliant(st.apps, want.trust_dscp);
    r.pfc.setting = "pfc";
    r.pfc.desired = pfcWanted(want);
    r.pfc.observed = st.pfc ? describePfc(st.pfc->enabled) : "unknown";
    auto mask = pfcMask(want.pfc_priorities);
    r.pfc.compliant = mask && st.pfc && st.pfc->enabled == *mask;
    if (!mask)
        r.pfc.error = "PFC priorities must be from 0 to 7";
    else if (!st.pfc)
        r.pfc.error = "netdev " + st.ifname + ": the driver reports no PFC configuration";
    return r;
}

DcbReports unreadable(const pv1::QosDesired& want, const pv1::Status& s)
{
    DcbReports r;
    r.trust = {"trust", describeTrustWanted(want.trust_dscp), "", false, false, s.message};
    r.pfc = {"pfc", pfcWanted(want), "", false, false, s.message};
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
        return unreadable(want, s);
    }
    before.ifname = netdev;
    DcbReports r = describe(want, before);
    if (!call.apply)
        return r;

    std::string trust_error, pfc_error;
    if (auto plan = planTrust(before.apps, want.trust_dscp); !plan.empty()) {
        call.logChange("netdev " + netdev + " trust " + r.trust.observed + " -> " +
                       r.trust.desired + " (" + trustChange(plan) + ")");
        if (call.writes())
            if (auto s = changeTrust(dcb, netdev, plan, want.trust_dscp); !s) {
                call.fail(s);
                trust_error = s.message;
            }
        r.trust.changed = true;
    }
    auto mask = pfcMask(want.pfc_priorities);
    if (mask && before.pfc && before.pfc->enabled != *mask) {
        call.logChange("netdev " + netdev + " PFC priorities " + r.pfc.observed + " -> " +
                       r.pfc.desired);
        if (call.writes())
            if (auto s = dcb.set(netdev, planPfc(*before.pfc, *mask), {}); !s) {
                call.fail(s);
                pfc_error = s.message;
            }
        r.pfc.changed = true;
    }
    if (!r.trust.changed && !r.pfc.changed)
        return r; // nothing written: what was read is what there is

    dcb::DcbState after = before;
    if (call.writes()) {
        if (auto s = dcb.get(netdev, after); !s) {
            call.fail(s);
            DcbReports lost = unreadable(want, s);
            lost.trust.changed = r.trust.changed;
            lost.pfc.changed = r.pfc.changed;
            return lost;
        }
        after.ifname = netdev;
    }
    DcbReports back = describe(want, after);
    back.trust.changed = r.trust.changed;
    back.pfc.changed = r.pfc.changed;
    if (!trust_error.empty())
        back.trust.error = trust_error;
    if (!pfc_error.empty())
        back.pfc.error = pfc_error;
    return back;
}

} // namespace nicd::mlx5
