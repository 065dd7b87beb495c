#include "health/neighbor_rules.hpp"

#include "config/wiring_map.hpp"
#include "health/verdicts.hpp"
#include "neighbor/dcbx_tlv.hpp"
#include "neighbor/switch_qos_compare.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <set>

namespace nicd::health {

namespace {

using config::globMatches;
using config::WiringMap;
using config::WiringRule;

constexpr const char* kUnexpected = "wiring.unexpected_neighbor";
constexpr const char* kNoNeighbor = "wiring.no_neighbor";
constexpr const char* kSwitchMismatch = "qos.switch_mismatch";
constexpr const char* kFirmwareAgent = "lldp_firmware_agent";

// Who runs DCBX on the port when not the host, as its plugin said in the last QoS round.
std::string firmwareAgentOf(const Snapshot& snap, const std::string& ibdev, uint32_t port)
{
    auto st = snap.qos.ports.find({ibdev, port});
    return st == snap.qos.ports.end() ? std::string() : st->second.lldp_agent;
}

// A RoCE port lldpd can hear: an Ethernet port of a PF (not a VF, not a LAG's bond) with a
// netdev.
struct LldpPort {
    const Device* device = nullptr;
    const Port* port = nullptr;
    const std::string* netdev = nullptr;
};

std::vector<LldpPort> lldpPorts(const Inventory& inv)
{
    std::vector<LldpPort> out;
    for (const auto& d : inv.devices) {
        if (d.function == DeviceFunction::VirtualFunction || d.function == DeviceFunction::Lag)
            continue;
        for (const auto& p : d.ports)
            if (p.link_layer == "Ethernet" && !p.netdevs.empty())
                out.push_back({&d, &p, &p.netdevs.front()});
    }
    return out;
}

const WiringRule* ruleOf(const WiringMap& map, const LldpPort& lp)
{
    for (const auto& rule : map.rules) {
        if (!lp.device->pci_address.empty() && globMatches(rule.port, lp.device->pci_address))
            return &rule;
        for (const auto& netdev : lp.port->netdevs)
            if (globMatches(rule.port, netdev))
                return &rule;
    }
    return nullptr;
}

bool neighborMatches(const WiringRule& rule, const LldpNeighbor& n)
{
    const bool switch_ok =
        (!n.system_name.empty() && globMatches(rule.switch_name, n.system_name)) ||
        globMatches(rule.switch_name, n.chassis_id);
    const bool port_ok = globMatches(rule.switch_port, n.port_id) ||
                         (!n.port_descr.empty() && globMatches(rule.switch_port, n.port_descr));
    return switch_ok && port_ok;
}

std::string expected(const WiringRule& rule)
{
    return rule.switch_port == "*" ? rule.switch_name : rule.switch_name + " " + rule.switch_port;
}

std::string where(const WiringMap& map, const WiringRule& rule)
{
    return fmt::format("the wiring map {} line {}", map.file, rule.line);
}

// "3,4" or "none" as the plugins print PFC; nullopt for anything else ("unknown").
std::optional<std::vector<uint8_t>> priorityList(const std::string& text)
{
    if (text == "none")
        return std::vector<uint8_t>{};
    std::vector<uint8_t> out;
    size_t i = 0;
    while (i < text.size()) {
        if (text[i] < '0' || text[i] > '7')
            return std::nullopt;
        out.push_back(static_cast<uint8_t>(text[i] - '0'));
        ++i;
        if (i < text.size() && text[i++] != ',')
            return std::nullopt;
    }
    if (out.empty())
        return std::nullopt;
    return out;
}

// The host's side of the comparison: what the port's last QoS round read back where it could,
// else what nicd provisions there. Nothing when nicd does not manage the port's QoS (a port it
// leaves alone is the operator's: nicd cannot say what it should be).
std::optional<neighbor::HostQos> hostQosOf(const Snapshot& snap, const Config& config,
                                           const std::string& ibdev, uint32_t port)
{
    auto st = snap.qos.ports.find({ibdev, port});
    if (st == snap.qos.ports.end() || !st->second.managed)
        return std::nullopt;
    const ProvisionSettings wanted = config.provisionFor(ibdev);
    neighbor::HostQos host;
    host.pfc_priorities = wanted.pfc_priorities;
    host.roce_tos = wanted.roce_tos;
    host.trust_dscp = wanted.trust == TrustMode::Dscp;
    for (const auto& s : st->second.settings) {
        if (s.setting == "pfc") {
            if (auto list = priorityList(s.observed))
                host.pfc_priorities = *list;
        } else if (s.setting == "trust") {
            if (s.observed.starts_with("dscp"))
                host.trust_dscp = true;
            else if (s.observed.starts_with("pcp"))
                host.trust_dscp = false;
        } else if (s.setting == "roce_tos") {
            unsigned tos = 0;
            auto [end, ec] =
                std::from_chars(s.observed.data(), s.observed.data() + s.observed.size(), tos);
            if (ec == std::errc() && end == s.observed.data() + s.observed.size() && tos < 256)
                host.roce_tos = static_cast<uint8_t>(tos);
        }
    }
    return host;
}

std::string recovered(const Condition& c)
{
    if (c.code == kSwitchMismatch)
        return "the switch port's DCB agrees with the host's";
    if (c.code == kNoNeighbor)
        return "the port hears its LLDP neighbour";
    if (c.code == kFirmwareAgent)
        return "the port hears its LLDP neighbour, or the host runs DCBX again";
    return "the port hears the neighbour it should";
}

} // namespace

std::map<std::pair<std::string, uint32_t>, std::string> portNeighborLabels(const Snapshot& snap)
{
    std::map<std::pair<std::string, uint32_t>, std::string> out;
    if (!snap.neighbors.available)
        return out;
    for (const auto& lp : lldpPorts(snap.inventory)) {
        const auto* heard = snap.neighbors.neighborsOf(*lp.netdev);
        if (!heard || heard->empty())
            continue;
        std::string label;
        for (size_t i = 0; i < heard->size(); ++i)
            label += (i == 0 ? "" : " and ") + (*heard)[i].label();
        out[{lp.device->ibdev, lp.port->num}] = std::move(label);
    }
    return out;
}

void NeighborRules::evaluate(const Snapshot& snap, double now_mono, double now_real,
                             ConditionSet& conditions, std::vector<Event>& out)
{
    const NeighborReading& lldp = snap.neighbors;
    if (!lldp.available) {
        // Unknown: what was raised holds, and the quiet timers start again when lldpd is back
        // (a port did not go quiet while nobody listened).
        ports_.clear();
        return;
    }
    const Config& config = this->config();
    const WiringMap& map = config.health.wiring;
    const auto ports = lldpPorts(snap.inventory);

    // The longest TTL heard on the node now: how long a port that never heard one waits.
    uint32_t node_ttl = 0;
    for (const auto& [netdev, heard] : lldp.by_netdev)
        for (const auto& n : heard)
            node_ttl = std::max(node_ttl, n.ttl_seconds);

    // Which compute ports hear each switch port (chassis ID, port ID).
    std::map<std::pair<std::string, std::string>, std::vector<const LldpPort*>> by_switch_port;
    for (const auto& lp : ports)
        if (lp.device->role == Role::Compute)
            if (const auto* heard = lldp.neighborsOf(*lp.netdev); heard && heard->size() == 1)
                by_switch_port[{heard->front().chassis_id, heard->front().port_id}].push_back(&lp);

    Verdicts v;
    std::set<std::pair<std::string, uint32_t>> present;
    for (const auto& lp : ports) {
        const std::string& ibdev = lp.device->ibdev;
        const uint32_t num = lp.port->num;
        const std::string& netdev = *lp.netdev;
        present.insert({ibdev, num});
        if (!lldp.listensOn(netdev)) {
            ports_.erase({ibdev, num});
            continue;
        }
        v.judged(ibdev, num);
        PortMemory& mem = ports_[{ibdev, num}];
        const auto* heard = lldp.neighborsOf(netdev);
        const WiringRule* rule = map.rules.empty() ? nullptr : ruleOf(map, lp);
        if (heard && !heard->empty()) {
            mem.quiet_since = -1;
            mem.last_ttl = heard->front().ttl_seconds;
        } else if (lp.port->active()) {
            if (mem.quiet_since < 0)
                mem.quiet_since = now_mono;
        } else {
            mem.quiet_since = -1;
        }

        // Two neighbours on one port.
        if (heard && heard->size() > 1) {
            v.raise(makeCondition(
                ConditionSource::Neighbor, kUnexpected, ConditionSeverity::Degraded, ibdev, num,
                fmt::format("{} hears {} LLDP neighbours, {} and {}: one cable reaches one "
                            "switch port, so something between passes another's frames",
                            netdev, heard->size(), (*heard)[0].label(), (*heard)[1].label()),
                "trace the cable from this port: take out what sits between it and the switch "
                "(a hub, a media converter, a patch to a second switch), or stop the switch port "
                "from forwarding LLDP",
                Action::CheckCable));
            continue;
        }
        if (heard && heard->size() == 1) {
            const LldpNeighbor& n = heard->front();
            if (rule && !neighborMatches(*rule, n)) {
                v.raise(makeCondition(
                    ConditionSource::Neighbor, kUnexpected, ConditionSeverity::Degraded, ibdev, num,
                    fmt::format("{} reaches {} (chassis {}); {} expects {}: the cable is patched "
                                "to the wrong switch port",
                                netdev, n.label(), n.chassis_id, where(map, *rule),
                                expected(*rule)),
                    fmt::format("patch the cable of {} to {} (or correct the wiring map)", netdev,
                                expected(*rule)),
                    Action::CheckCable));
                continue;
            }
            auto shared = by_switch_port.find({n.chassis_id, n.port_id});
            if (lp.device->role == Role::Compute && shared != by_switch_port.end() &&
                shared->second.size() > 1) {
                const LldpPort* other = shared->second.front()->netdev == lp.netdev
                                            ? shared->second[1]
                                            : shared->second.front();
                v.raise(makeCondition(
                    ConditionSource::Neighbor, kUnexpected, ConditionSeverity::Degraded, ibdev, num,
                    fmt::format("{} and {} both reach {}: two ports of this node cannot share "
                                "one switch port, so one of them is patched wrong (or the switch "
                                "sends one port ID on several ports)",
                                netdev, *other->netdev, n.label()),
                    "trace both cables to the switch and patch each to its own port",
                    Action::CheckCable));
                continue;
            }
            // The switch's DCB against the host's.
            if (auto host = hostQosOf(snap, config, ibdev, num)) {
                const auto dcb = neighbor::foldDcbxTlvs(n.org_tlvs);
                const auto mismatches = neighbor::compareSwitchQos(dcb, *host, n.label());
                if (!mismatches.empty()) {
                    std::string message;
                    for (const auto& m : mismatches)
                        message += (message.empty() ? "" : "; ") + m.message;
                    v.raise(makeCondition(
                        ConditionSource::Neighbor, kSwitchMismatch, ConditionSeverity::Degraded,
                        ibdev, num, message,
                        fmt::format("set the switch port {} to the fabric's RoCE profile (or, if "
                                    "the switch is right, nicd's [provision] settings): both ends "
                                    "must agree for RoCE to stay lossless",
                                    n.label()),
                        Action::CheckSwitchPort));
                }
            }
            continue;
        }
        // Nothing heard, where the NIC's own firmware runs DCBX: said, at info (the firmware may
        // be consuming the frames, or the switch sends none).
        const std::string agent = firmwareAgentOf(snap, ibdev, num);
        if (!agent.empty() && lp.port->active())
            v.raise(makeCondition(ConditionSource::Neighbor, kFirmwareAgent,
                                  ConditionSeverity::Info, ibdev, num,
                                  fmt::format("{} hears no LLDP neighbour, and {}", netdev, agent),
                                  "to let the host hear the switch, turn the NIC firmware's "
                                  "LLDP/DCBX agent off (the runbook says how for each vendor)",
                                  Action::None));
        // Nothing heard on an up port the map names.
        if (rule && lp.port->active() && mem.quiet_since >= 0) {
            const uint32_t ttl =
                mem.last_ttl ? mem.last_ttl : (node_ttl ? node_ttl : kDefaultTtlSeconds);
            const double quiet = now_mono - mem.quiet_since;
            if (quiet >= static_cast<double>(kTtlsUnheard) * ttl)
                v.raise(makeCondition(
                    ConditionSource::Neighbor, kNoNeighbor, ConditionSeverity::Degraded, ibdev, num,
                    // The time in the message is the threshold, not the quiet time: a message
                    // that changed each cycle would change the condition each cycle.
                    fmt::format("{} is up and has heard no LLDP for {} s or more ({} × a TTL of "
                                "{} s) while lldpd listens on it; {} expects {}{}",
                                netdev, kTtlsUnheard * ttl, kTtlsUnheard, ttl, where(map, *rule),
                                expected(*rule), agent.empty() ? "" : "; " + agent),
                    fmt::format("check that the switch port {} sends LLDP and that the cable of "
                                "{} reaches it; a NIC whose firmware runs its own LLDP agent "
                                "takes the frames before lldpd sees them",
                                expected(*rule), netdev),
                    Action::CheckCable));
        }
    }
    for (auto it = ports_.begin(); it != ports_.end();)
        it = present.contains(it->first) ? std::next(it) : ports_.erase(it);
    v.apply(
        conditions,
        [](const std::string& code) {
            return code == kUnexpected || code == kNoNeighbor || code == kSwitchMismatch ||
                   code == kFirmwareAgent;
        },
        recovered, now_real, out);
}

} // namespace nicd::health
