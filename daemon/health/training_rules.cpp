#include "health/training_rules.hpp"

#include "health/firmware_baseline.hpp"
#include "health/verdicts.hpp"
#include "prefailure/pcie_link.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <tuple>

namespace nicd::health {

bool olderFirmware(std::string_view a, std::string_view b)
{
    auto parts = [](std::string_view s) {
        std::vector<uint64_t> out;
        while (!s.empty()) {
            auto dot = s.find('.');
            auto part = s.substr(0, dot);
            uint64_t n = 0;
            std::from_chars(part.data(), part.data() + part.size(), n);
            out.push_back(n);
            s = dot == std::string_view::npos ? std::string_view() : s.substr(dot + 1);
        }
        return out;
    };
    return parts(a) < parts(b);
}

namespace {

std::string linkText(std::optional<double> gts, std::optional<int> width)
{
    return fmt::format("{} x{}", gts ? fmt::format("{:.1f} GT/s", *gts) : std::string("?"),
                       width ? std::to_string(*width) : std::string("?"));
}

// What a link can train at: the lower of both ends' capability.
std::string capText(const PcieLink& link)
{
    auto cap_gts = link.upstream_max_gts && link.max_gts
                       ? std::min(*link.max_gts, *link.upstream_max_gts)
                       : link.max_gts;
    auto cap_width = link.upstream_max_width && link.max_width
                         ? std::min(*link.max_width, *link.upstream_max_width)
                         : link.max_width;
    return linkText(cap_gts, cap_width);
}

void judgePcie(const Snapshot& snap, Verdicts& v)
{
    for (const auto& [ibdev, link] : snap.pcie) {
        v.judged(ibdev, 0);
        if (prefailure::trainedDown(link))
            v.raise(signalCondition(
                "pcie_link_degraded", ConditionSeverity::Degraded, ibdev, 0,
                fmt::format("PCIe link trained at {}; the NIC and the port above it allow {}",
                            linkText(link.current_gts, link.current_width), capText(link)),
                "the card's PCIe link trained down (a loose card, riser or slot): reseat the NIC",
                Action::ReseatNic));
        std::vector<std::string> hops;
        for (const auto& hop : link.path)
            if (prefailure::trainedDown(hop.link))
                hops.push_back(fmt::format(
                    "the link between {} and the switch port {} trained at {}; both ends allow {}",
                    hop.upstream, hop.downstream,
                    linkText(hop.link.current_gts, hop.link.current_width), capText(hop.link)));
        if (!hops.empty())
            v.raise(signalCondition(
                "pcie_path_degraded", ConditionSeverity::Degraded, ibdev, 0,
                fmt::format("PCIe above the NIC: {}", fmt::join(hops, "; ")),
                "the PCIe switch's link to the port above it trained down, slowing every device "
                "below it (GPUs too): reseat the switch board, its riser or cable, and check the "
                "slot's PCIe speed in the BIOS",
                Action::ReseatNic));
    }
}

using PeerKey = std::tuple<std::string, DeviceFunction, std::string>; // board, function, layer

void judgeRates(const Inventory& inv, Verdicts& v)
{
    std::map<PeerKey, std::vector<std::pair<const Device*, const Port*>>> groups;
    for (const auto& d : inv.devices) {
        if (d.board_id.empty() || d.function == DeviceFunction::VirtualFunction)
            continue;
        for (const auto& p : d.ports) {
            v.judged(d.ibdev, p.num);
            if (p.state == 4 && p.rate_gbps)
                groups[{d.board_id, d.function, p.link_layer}].emplace_back(&d, &p);
        }
    }
    for (const auto& [key, ports] : groups) {
        if (ports.size() < 2)
            continue;
        auto fastest = *std::max_element(ports.begin(), ports.end(), [](auto& a, auto& b) {
            return *a.second->rate_gbps < *b.second->rate_gbps;
        });
        for (const auto& [d, p] : ports)
            if (*p->rate_gbps < *fastest.second->rate_gbps)
                v.raise(signalCondition(
                    "port_rate_degraded", ConditionSeverity::Degraded, d->ibdev, p->num,
                    fmt::format("the port runs at {}; {} port {} of the same board ({}) at {}",
                                p->rate, fastest.first->ibdev, fastest.second->num, d->board_id,
                                fastest.second->rate),
                    "the link trained below its peers (lanes down or a lower speed): check the "
                    "cable and the switch port's configuration",
                    Action::CheckCable));
    }
}

// A multi-plane port's planes (an SMI sub-device's ports): only each plane's rate is its own (its
// state is the native port's on every plane), so a plane slower than its fastest sibling is the
// one per-plane sign of a plane trained down. Judged while the port itself is active.
void judgePlanes(const Inventory& inv, Verdicts& v)
{
    for (const auto& d : inv.devices)
        for (const auto& p : d.ports) {
            std::vector<const PlanePort*> planes;
            for (const auto& plane : d.planes)
                if (plane.native_port == p.num && plane.port.rate_gbps)
                    planes.push_back(&plane);
            if (planes.size() < 2)
                continue;
            v.judged(d.ibdev, p.num);
            if (p.state != 4)
                continue;
            const auto* fastest =
                *std::max_element(planes.begin(), planes.end(), [](auto* a, auto* b) {
                    return *a->port.rate_gbps < *b->port.rate_gbps;
                });
            std::vector<std::string> slow;
            for (const auto* plane : planes)
                if (*plane->port.rate_gbps < *fastest->port.rate_gbps)
                    slow.push_back(fmt::format("plane {} ({} port {}) runs at {}", plane->port.num,
                                               plane->smi_device, plane->port.num,
                                               plane->port.rate));
            if (!slow.empty())
                v.raise(signalCondition(
                    "plane_rate_degraded", ConditionSeverity::Degraded, d.ibdev, p.num,
                    fmt::format("{}; plane {} at {}", fmt::join(slow, "; "), fastest->port.num,
                                fastest->port.rate),
                    "a plane of the multi-plane port trained below its siblings (lanes down or a "
                    "lower speed on that plane's cable or switch port): check the cable and the "
                    "switch port",
                    Action::CheckCable));
        }
}

void judgeFirmware(const Inventory& inv, Verdicts& v)
{
    std::map<std::string, std::map<std::string, std::vector<std::string>>> boards;
    for (const auto& d : inv.devices) {
        if (d.board_id.empty() || d.fw_ver.empty() || d.function == DeviceFunction::VirtualFunction)
            continue;
        v.judged(d.ibdev, 0);
        boards[d.board_id][d.fw_ver].push_back(d.ibdev);
    }
    for (const auto& [board, versions] : boards) {
        if (versions.size() < 2)
            continue;
        auto common = std::max_element(versions.begin(), versions.end(), [](auto& a, auto& b) {
            return a.second.size() != b.second.size() ? a.second.size() < b.second.size()
                                                      : olderFirmware(a.first, b.first);
        });
        for (const auto& [version, devices] : versions) {
            if (version == common->first)
                continue;
            for (const auto& ibdev : devices)
                v.raise(signalCondition(
                    "firmware_drift", ConditionSeverity::Degraded, ibdev, 0,
                    fmt::format("firmware {} differs from {} on {} of the same board ({})", version,
                                common->first, fmt::join(common->second, ", "), board),
                    "one card was left on another firmware: update it to match its peers",
                    Action::UpdateFirmware));
        }
    }
}

} // namespace

namespace {

// Each check: its code, its switch in [signals], and what its recovery says.
struct Check {
    const char* code;
    bool SignalConfig::*enabled;
    const char* recovered;
};

constexpr Check kChecks[] = {
    {"pcie_link_degraded", &SignalConfig::pcie_training,
     "the PCIe link runs at full width and speed again"},
    {"pcie_path_degraded", &SignalConfig::pcie_training,
     "every PCIe link above the NIC runs at full width and speed again"},
    {"port_rate_degraded", &SignalConfig::port_rate_peers, "the port runs at its peers' rate"},
    {"plane_rate_degraded", &SignalConfig::port_rate_peers,
     "every plane of the port runs at the same rate again"},
    {"firmware_drift", &SignalConfig::firmware_peers, "the firmware matches its peers"},
};

const Check* checkOf(const std::string& code)
{
    for (const auto& c : kChecks)
        if (code == c.code)
            return &c;
    return nullptr;
}

} // namespace

void TrainingRules::evaluate(const Snapshot& snap, double /*now_mono*/, double now_real,
                             ConditionSet& conditions, std::vector<Event>& out)
{
    const Config& config = this->config();
    const auto& sc = config.signals;
    auto on = [&](const Check* c) { return sc.enable && sc.*(c->enabled); };
    Verdicts v;
    if (on(checkOf("pcie_link_degraded")))
        judgePcie(snap, v);
    if (on(checkOf("port_rate_degraded")))
        judgeRates(snap.inventory, v);
    if (on(checkOf("plane_rate_degraded")))
        judgePlanes(snap.inventory, v);
    if (on(checkOf("firmware_drift")))
        judgeFirmware(snap.inventory, v);
    // A check switched off recovers what it raised.
    conditions.recoverIf(
        [&](const Condition& c) {
            const auto* check = checkOf(c.code);
            return check && !on(check);
        },
        [](const Condition&) { return std::string("the check was switched off"); }, now_real, out);
    v.apply(
        conditions, [](const std::string& code) { return checkOf(code) != nullptr; },
        [](const Condition& c) { return std::string(checkOf(c.code)->recovered); }, now_real, out);
    // The firmware baseline: asked by [health], not a [signals] source, so on whatever they say.
    conditions.recoverIf(
        [&](const Condition& c) { return baselineWithdrawn(c, snap.inventory, config.health); },
        [](const Condition&) { return std::string("the board has no firmware baseline any more"); },
        now_real, out);
    Verdicts baseline;
    judgeFirmwareBaseline(snap.inventory, config.health, baseline);
    baseline.apply(
        conditions, [](const std::string& code) { return code == kFirmwareBelowBaseline; },
        [](const Condition&) { return std::string("the firmware meets the baseline"); }, now_real,
        out);
}

} // namespace nicd::health
