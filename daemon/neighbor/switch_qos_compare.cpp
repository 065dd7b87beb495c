// The switch-versus-host checks, one function a setting. Priorities are held as 8-bit maps (bit n
// = priority n) so that sets compare as numbers and print in order.
#include "neighbor/switch_qos_compare.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <utility>

namespace nicd::neighbor {

namespace {

constexpr size_t kPriorities = 8;

// "3,4" for priorities 3 and 4; "none" for none.
std::string priorityText(uint8_t map)
{
    std::string out;
    for (size_t p = 0; p < kPriorities; ++p)
        if ((map >> p) & 1)
            out += (out.empty() ? "" : ",") + std::to_string(p);
    return out.empty() ? "none" : out;
}

uint8_t bit(size_t priority)
{
    return static_cast<uint8_t>(1u << priority);
}

uint8_t hostPfcMap(const HostQos& host)
{
    uint8_t map = 0;
    for (uint8_t p : host.pfc_priorities)
        if (p < kPriorities)
            map |= bit(p);
    return map;
}

// The switch's PFC as the IEEE TLV says, else as the CEE sub-TLV does (a CEE feature the switch
// does not run enables PFC on no priority).
struct SwitchPfc {
    uint8_t map = 0;
    bool willing = false;
};

std::optional<SwitchPfc> switchPfc(const SwitchDcb& sw)
{
    if (sw.pfc)
        return SwitchPfc{sw.pfc->enabled_bitmap, sw.pfc->willing};
    if (sw.cee && sw.cee->pfc) {
        const CeePfc& c = *sw.cee->pfc;
        return SwitchPfc{c.feature.enabled ? c.enabled_bitmap : uint8_t{0}, c.feature.willing};
    }
    return std::nullopt;
}

// The priorities the switch's APP TLV maps `dscp` to.
uint8_t appDscpMap(const SwitchDcb& sw, uint8_t dscp)
{
    uint8_t map = 0;
    if (sw.app)
        for (const AppEntry& e : sw.app->entries)
            if (e.selector == AppSelector::Dscp && e.protocol == dscp)
                map |= bit(e.priority);
    return map;
}

struct Compare {
    const SwitchDcb& sw;
    const HostQos& host;
    std::string_view port;
    std::vector<QosMismatch> out;

    void add(std::string setting, std::string switch_value, std::string host_value,
             std::string message)
    {
        out.push_back({std::move(setting), std::move(switch_value), std::move(host_value),
                       std::move(message)});
    }

    std::string roceWords() const
    {
        return fmt::format("DSCP {} (RoCE, ToS {})", host.roceDscp(), host.roce_tos);
    }

    void pfc()
    {
        auto s = switchPfc(sw);
        const uint8_t mine = hostPfcMap(host);
        if (!s || s->map == mine)
            return;
        add("pfc", priorityText(s->map), priorityText(mine),
            fmt::format("{} enables PFC on {}; this host on {}", port, priorityText(s->map),
                        priorityText(mine)));
    }

    void appDscp()
    {
        const uint8_t mapped = appDscpMap(sw, host.roceDscp());
        const uint8_t mine = hostPfcMap(host);
        for (size_t p = 0; p < kPriorities; ++p) {
            if (!((mapped >> p) & 1))
                continue;
            std::vector<std::string> wrong;
            if (host.roce_priority && *host.roce_priority != p)
                wrong.push_back(fmt::format("sends RoCE on priority {}", *host.roce_priority));
            if (!((mine >> p) & 1))
                wrong.push_back(
                    fmt::format("has no PFC on priority {} (PFC on {})", p, priorityText(mine)));
            if (wrong.empty())
                continue;
            std::string host_value = fmt::format("PFC on {}", priorityText(mine));
            if (host.roce_priority)
                host_value =
                    fmt::format("RoCE on priority {}, {}", *host.roce_priority, host_value);
            add("app_dscp", fmt::format("DSCP {} -> priority {}", host.roceDscp(), p),
                std::move(host_value),
                fmt::format("{} maps {} to priority {}; this host {}", port, roceWords(), p,
                            fmt::join(wrong, " and ")));
        }
    }

    void trust()
    {
        if (host.trust_dscp || !sw.app)
            return;
        // The entry of RoCE's DSCP, else the first DSCP entry.
        const AppEntry* shown = nullptr;
        for (const AppEntry& e : sw.app->entries) {
            if (e.selector != AppSelector::Dscp)
                continue;
            if (e.protocol == host.roceDscp()) {
                shown = &e;
                break;
            }
            if (!shown)
                shown = &e;
        }
        if (!shown)
            return;
        add("trust", "dscp", "pcp",
            fmt::format("{} classifies traffic by DSCP (it maps DSCP {} to priority {}); this "
                        "host trusts PCP, not DSCP",
                        port, shown->protocol, shown->priority));
    }

    // The priorities RoCE may travel on: where the switch's APP TLV and the host put its DSCP;
    // when neither says, each of the host's PFC priorities. `why` says which, for messages.
    uint8_t rocePriorities(std::string& why) const
    {
        uint8_t map = appDscpMap(sw, host.roceDscp());
        if (host.roce_priority && *host.roce_priority < kPriorities)
            map |= bit(*host.roce_priority);
        why = "RoCE";
        if (map == 0) {
            map = hostPfcMap(host);
            why = "this host's PFC traffic";
        }
        return map;
    }

    void ets()
    {
        std::string why;
        const uint8_t roce = rocePriorities(why);
        for (size_t p = 0; p < kPriorities; ++p) {
            if (!((roce >> p) & 1))
                continue;
            if (sw.ets) {
                const EtsTables& t = sw.ets->tables;
                const uint8_t tc = t.priority_tc[p];
                if (tc >= kPriorities || t.tc_tsa[tc] != Tsa::Ets || t.tc_bandwidth[tc] != 0)
                    continue;
                add("ets", fmt::format("priority {} in TC {}: ETS, 0 %", p, tc),
                    fmt::format("{} on priority {}", why, p),
                    fmt::format("{} puts priority {} in traffic class {}, an ETS class with 0 % of "
                                "the bandwidth: {} on priority {} gets only what other classes "
                                "leave unused",
                                port, p, tc, why, p));
            } else if (sw.cee && sw.cee->priority_groups &&
                       sw.cee->priority_groups->feature.enabled) {
                const CeePriorityGroups& g = *sw.cee->priority_groups;
                const uint8_t pg = g.priority_group[p];
                // A group above 7 is kCeeStrictGroup: strict priority, no share to starve.
                if (pg >= kPriorities || g.group_bandwidth[pg] != 0)
                    continue;
                add("ets", fmt::format("priority {} in PG {}: 0 %", p, pg),
                    fmt::format("{} on priority {}", why, p),
                    fmt::format("{} puts priority {} in priority group {}, with 0 % of the "
                                "bandwidth: {} on priority {} gets only what other groups leave "
                                "unused",
                                port, p, pg, why, p));
            }
        }
    }

    void willing()
    {
        if (!host.willing)
            return;
        std::vector<std::string> sides;
        if (auto s = switchPfc(sw); s && s->willing)
            sides.emplace_back("PFC");
        if (sw.ets ? sw.ets->willing
                   : sw.cee && sw.cee->priority_groups && sw.cee->priority_groups->feature.willing)
            sides.emplace_back("ETS");
        if (sides.empty())
            return;
        // Neither end is authoritative then: 802.1Qaz breaks the tie for PFC by MAC address
        // (openlldp's pfc_sm: the end with the lower address takes its peer's), and a willing end
        // takes its peer's ETS Recommendation.
        add("willing", fmt::format("willing ({})", fmt::join(sides, ", ")), "willing",
            fmt::format("{} is willing to take its peer's {} configuration and so is this host: "
                        "neither end is authoritative, and which configuration holds is left to "
                        "DCBX's tie-break{}",
                        port, fmt::join(sides, " and "),
                        sides.front() == "PFC"
                            ? " (for PFC, the end with the lower MAC address takes the other's)"
                            : ""));
    }
};

const char* tsaWord(Tsa tsa)
{
    switch (tsa) {
    case Tsa::Strict:
        return "strict";
    case Tsa::CreditBasedShaper:
        return "CBS";
    case Tsa::Ets:
        return "ETS";
    case Tsa::Vendor:
        return "vendor";
    }
    return "reserved";
}

} // namespace

std::map<std::string, std::string> switchSettingValues(const SwitchDcb& sw, uint8_t roce_dscp)
{
    std::map<std::string, std::string> out;
    if (auto pfc = switchPfc(sw))
        out["pfc"] = priorityText(pfc->map);
    bool dscp_entries = false;
    if (sw.app)
        for (const AppEntry& e : sw.app->entries)
            dscp_entries = dscp_entries || e.selector == AppSelector::Dscp;
    if (dscp_entries)
        out["trust"] = "dscp";
    const uint8_t roce = appDscpMap(sw, roce_dscp);
    if (roce != 0)
        out["roce_tos"] = fmt::format("DSCP {} -> {}", roce_dscp, priorityText(roce));
    if (sw.ets && roce != 0) {
        std::vector<std::string> parts;
        for (size_t p = 0; p < kPriorities; ++p)
            if ((roce >> p) & 1) {
                const EtsTables& t = sw.ets->tables;
                const uint8_t tc = t.priority_tc[p];
                if (tc < kPriorities)
                    parts.push_back(fmt::format("priority {} in TC {}: {}, {} %", p, tc,
                                                tsaWord(t.tc_tsa[tc]), t.tc_bandwidth[tc]));
            }
        if (!parts.empty())
            out["ets"] = fmt::format("{}", fmt::join(parts, "; "));
    }
    return out;
}

std::vector<QosMismatch> compareSwitchQos(const SwitchDcb& advertised, const HostQos& host,
                                          std::string_view switch_port)
{
    Compare c{advertised, host, switch_port, {}};
    c.pfc();
    c.appDscp();
    c.trust();
    c.ets();
    c.willing();
    return std::move(c.out);
}

} // namespace nicd::neighbor
