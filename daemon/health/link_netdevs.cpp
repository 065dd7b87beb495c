// LinkRules' judgement of a port's netdevs. What a netdev that is not up means depends on the
// port's link layer:
// - Ethernet (RoCE): the netdev carries the RDMA traffic; one that was up and is not is down
//   (netdev_down.<if>, fatal), and rtnetlink says so before the IB state does.
// - InfiniBand: the netdev is IPoIB, beside the RDMA traffic, which does not need it. Admin down
//   is the operator's choice and judged nowhere. Admin up but not up while the port is ACTIVE
//   (never came up, or went down) is IPoIB's own failure: the interface joins its P_Key's
//   broadcast group through the subnet manager and keeps its carrier off until that join
//   succeeds (a P_Key the SM does not give this port, a multicast group it refuses). Jobs that
//   bootstrap over IPoIB addresses (NCCL's socket interface, storage mounts) fail; RDMA traffic
//   does not. ipoib_down.<if>, degraded, check_switch_port (the subnet manager's side), after
//   30 s of it: a join takes a second or two after the port turns ACTIVE or the SM hands over.
#include "health/boot_grace.hpp"
#include "health/link_rules.hpp"
#include "health/verdicts.hpp"

#include <fmt/format.h>

namespace nicd::health {

namespace {

// How long an IPoIB netdev may stay not up on an ACTIVE port before it is a fault.
constexpr double kIpoibGraceSec = 30;

const NetdevState* netdevState(const Snapshot& snap, const std::string& name)
{
    auto it = snap.netdevs.find(name);
    return it == snap.netdevs.end() ? nullptr : &it->second;
}

// Whether the netdev is administratively up: its carrier reads only then (EINVAL when down).
bool adminUp(const NetdevState& st)
{
    return st.carrier.has_value();
}

} // namespace

bool LinkRules::judgeNetdevs(const Snapshot& snap, const Device& d, const Port& p, double now_mono,
                             double now_real, std::set<ConditionKey>& seen,
                             ConditionSet& conditions, std::vector<Event>& out)
{
    const bool ipoib = p.link_layer == "InfiniBand";
    bool down = false;
    for (const auto& nd : p.netdevs) {
        const auto* st = netdevState(snap, nd);
        if (st == nullptr)
            continue;
        const bool up = st->operstate == "up";
        if (ipoib) {
            const bool first_look = ipoib_judged_.insert(nd).second;
            const std::string code = "ipoib_down." + nd;
            const ConditionKey key{d.ibdev, p.num, code};
            if (up || !p.active() || !adminUp(*st)) {
                // Up; or the port itself is down (port_down says so); or switched off.
                ipoib_not_up_since_.erase(nd);
                conditions.recover(key,
                                   up ? nd + " is up"
                                      : nd + " is no longer judged (" +
                                            (p.active() ? "admin down" : "port not active") + ")",
                                   now_real, out);
                continue;
            }
            const double since = ipoib_not_up_since_.try_emplace(nd, now_mono).first->second;
            // nicd's first look (it just started, or --once) on a node past its boot's first
            // minutes: what it finds is no join in progress.
            const bool long_enough =
                now_mono - since >= kIpoibGraceSec || (first_look && !inBootGrace(now_mono));
            if (!long_enough && !conditions.contains(key))
                continue;
            seen.insert(key);
            conditions.raise(
                makeCondition(
                    ConditionSource::Link, code, ConditionSeverity::Degraded, d.ibdev, p.num,
                    fmt::format("the IPoIB interface {} is admin up but {}{} while its InfiniBand "
                                "port is ACTIVE: it has not joined its P_Key's broadcast group",
                                nd, st->operstate, st->carrier == false ? " (no carrier)" : ""),
                    "check the subnet manager: the P_Key of " + nd +
                        " (its pkey) in this port's partitions and the IPoIB multicast group "
                        "(saquery -g); RDMA traffic is unaffected, jobs that reach peers "
                        "through IPoIB addresses are not",
                    Action::CheckSwitchPort),
                now_real, out);
            continue;
        }
        auto& was = netdev_up_[nd];
        const std::string code = "netdev_down." + nd;
        const ConditionKey key{d.ibdev, p.num, code};
        if (up) {
            was = true;
            conditions.recover(key, nd + " is up again", now_real, out);
        } else if (was) {
            down = true;
            seen.insert(key);
            conditions.raise(
                makeCondition(ConditionSource::Link, code, ConditionSeverity::Fatal, d.ibdev, p.num,
                              nd + " is " + st->operstate +
                                  (st->carrier == false ? " (no carrier)" : ""),
                              "check the cable and switch port; RoCE traffic on this port has "
                              "stopped",
                              Action::CheckCable),
                now_real, out);
        }
    }
    return down;
}

} // namespace nicd::health
