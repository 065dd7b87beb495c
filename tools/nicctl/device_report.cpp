#include "device_report.hpp"

#include "status_table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace nicctl {

namespace {

// "16 GT/s x16"; "-" when unknown.
std::string pcieOf(double gts, uint32_t width)
{
    if (gts <= 0 && width == 0)
        return "-";
    return (gts > 0 ? fmt::format("{:g} GT/s", gts) : std::string("? GT/s")) +
           (width > 0 ? fmt::format(" x{}", width) : std::string(" x?"));
}

std::string pcieLine(const bus::PcieLinkRow& p)
{
    std::string out = pcieOf(p.current_gts, p.current_width);
    if (p.capable_gts > 0 || p.capable_width > 0)
        out += " (can train " + pcieOf(p.capable_gts, p.capable_width) + ")";
    return out;
}

std::string temperatureLine(const DeviceView& d)
{
    std::string out;
    for (const auto& [label, celsius] : d.signals.temperatures) {
        if (!out.empty())
            out += ", ";
        out += fmt::format("{} {:.1f} °C", label, celsius);
        if (auto it = d.signals.temperature_limits.find(label);
            it != d.signals.temperature_limits.end())
            out += fmt::format(" (crit {:.1f} °C)", it->second);
    }
    return out;
}

std::string reporterLine(const DeviceView& d)
{
    std::string out;
    for (const auto& r : d.signals.reporters) {
        if (!out.empty())
            out += ", ";
        out += r.name + " " + r.state;
        if (r.errors > 0 || r.recovers > 0)
            out += fmt::format(" (errors {}, recovers {})", r.errors, r.recovers);
    }
    return out;
}

const double* valueOf(const bus::UplinkRow& u, const std::string& key)
{
    auto it = u.values.find(key);
    return it == u.values.end() ? nullptr : &it->second;
}

std::string fecLine(const bus::UplinkRow& u)
{
    bool any = !u.fec_mode.empty() || std::any_of(u.values.begin(), u.values.end(), [](auto& kv) {
        return kv.first.starts_with("fec_");
    });
    if (!any)
        return "no FEC statistics";
    std::string out = "FEC " + orDash(u.fec_mode);
    if (const auto* ber = valueOf(u, "fec_pre_ber")) {
        out += fmt::format(", pre-FEC BER {:.2e}", *ber);
        if (const auto* limit = valueOf(u, "fec_pre_ber_limit"))
            out += fmt::format(" (limit {:.2e})", *limit);
    }
    for (const auto& [key, words] : {std::pair{"fec_corrected_blocks", "corrected blocks"},
                                     {"fec_uncorrectable_blocks", "uncorrectable blocks"}})
        if (const auto* v = valueOf(u, key))
            out += fmt::format(", {} {:.0f}", words, *v);
    return out;
}

// Lanes from 1 up to the last one the module reported.
size_t laneCount(const bus::UplinkRow& u)
{
    size_t n = 0;
    for (const auto& [key, _] : u.values)
        if (key.starts_with("lane")) {
            size_t lane = 0;
            for (char c : key.substr(4)) {
                if (c < '0' || c > '9')
                    break;
                lane = lane * 10 + static_cast<size_t>(c - '0');
            }
            n = std::max(n, lane);
        }
    return n;
}

std::string moduleLines(const bus::UplinkRow& u, const std::string& indent)
{
    if (u.module.empty())
        return "";
    std::string out = indent + "module " + u.module;
    if (const auto* t = valueOf(u, "module_temperature_celsius"))
        out += fmt::format(", {:.1f} °C", *t);
    if (const auto* v = valueOf(u, "module_supply_volts"))
        out += fmt::format(", {:.2f} V", *v);
    out += '\n';
    size_t lanes = laneCount(u);
    if (lanes == 0)
        return out;
    out += indent +
           fmt::format("{:<5} {:>10} {:>10} {:>10}\n", "lane", "tx bias", "tx power", "rx power");
    for (size_t i = 1; i <= lanes; ++i) {
        std::string prefix = "lane" + std::to_string(i) + "_";
        const auto* bias = valueOf(u, prefix + "tx_bias_amperes");
        const auto* tx = valueOf(u, prefix + "tx_power_watts");
        const auto* rx = valueOf(u, prefix + "rx_power_watts");
        out += indent + fmt::format("{:<5} {:>10} {:>10} {:>10}\n", i,
                                    bias ? fmt::format("{:.2f} mA", *bias * 1e3) : "-",
                                    tx ? dbmOf(*tx) : "-", rx ? dbmOf(*rx) : "-");
    }
    return out;
}

// "  ready: yes" and each check: "    gid        ok       gid 3: RoCE v2 ::ffff:10.0.0.5 ...".
std::string readinessLines(const bus::PortValues& p, bool color)
{
    if (p.ready.empty() && p.ready_checks.empty())
        return "";
    std::string word = p.ready.empty() ? "-" : p.ready;
    if (color && word == "yes")
        word = "\033[32myes\033[0m";
    else if (color && word == "no")
        word = "\033[31mno\033[0m";
    std::string out = "  ready:       " + word + "\n";
    for (const auto& c : p.ready_checks)
        out += fmt::format("    {:<10} {:<8} {}\n", c.check, c.verdict, c.saw);
    return out;
}

// A multi-plane port's planes, "  planes:      4 (smi0, its state is the port's)" and each plane's
// own rate: "    plane 2    200 Gb/sec (1X XDR)".
std::string planeLines(const bus::PortValues& p)
{
    if (p.planes.empty())
        return "";
    std::string out = fmt::format("  {:<13}{} ({}; a plane's state is the port's)\n",
                                  "planes:", p.planes.size(), p.planes.front().smi_device);
    for (const auto& plane : p.planes)
        out += fmt::format("    plane {:<4} {}\n", plane.plane, orDash(plane.rate));
    return out;
}

// The switch port the cable reaches: "  switch:      leaf-07 swp12 (chassis 0c:42:a1:00:07:00,
// 10.0.7.1, TTL 120 s)", one line a neighbour; "  switch:      - (no LLDP neighbour heard)" for
// an Ethernet port that hears none.
std::string neighborLines(const bus::PortValues& p)
{
    if (p.neighbors.empty())
        return p.link_layer == "Ethernet"
                   ? fmt::format("  {:<13}- (no LLDP neighbour heard, or no lldpd)\n", "switch:")
                   : "";
    std::string out;
    for (const auto& n : p.neighbors)
        out += fmt::format("  {:<13}{} {} (chassis {}{}, TTL {} s)\n", "switch:", n.switch_name,
                           n.switch_port, n.chassis_id,
                           n.mgmt_address.empty() ? "" : ", " + n.mgmt_address, n.ttl);
    return out;
}

nlohmann::json neighborsJson(const bus::PortValues& p)
{
    nlohmann::json out = nlohmann::json::array();
    for (const auto& n : p.neighbors)
        out.push_back({{"switch", n.switch_name},
                       {"switch_port", n.switch_port},
                       {"chassis_id", n.chassis_id},
                       {"port_id", n.port_id},
                       {"mgmt_address", textOrNull(n.mgmt_address)},
                       {"ttl", n.ttl}});
    return out;
}

nlohmann::json planesJson(const bus::PortValues& p)
{
    nlohmann::json out = nlohmann::json::array();
    for (const auto& plane : p.planes)
        out.push_back({{"plane", plane.plane},
                       {"smi_device", plane.smi_device},
                       {"state", plane.state},
                       {"rate", plane.rate}});
    return out;
}

// "  qos:" and each setting the port's last QoS round read, with its result (compliant,
// noncompliant, or unsupported: the NIC gives nicd no interface for it) and what it read:
// "    ets          compliant    prio_tc 0,0,0,1,0,0,0,0, tc0 ets 50%, tc1 ets 50%".
std::string qosLines(const bus::PortValues& p)
{
    if (p.qos_observed.empty())
        return "";
    std::string out = "  qos:\n";
    for (const auto& [setting, observed] : p.qos_observed) {
        bus::QosResultRow row;
        row.observed = observed;
        auto c = p.qos_compliant.find(setting);
        row.compliant = c != p.qos_compliant.end() && c->second;
        out +=
            fmt::format("    {:<13}{:<13}{}\n", setting, bus::qosResultOf(row), orDash(observed));
    }
    return out;
}

nlohmann::json readinessJson(const bus::PortValues& p)
{
    nlohmann::json checks = nlohmann::json::array();
    for (const auto& c : p.ready_checks)
        checks.push_back({{"check", c.check}, {"verdict", c.verdict}, {"saw", c.saw}});
    return {{"ready", readyJson(p.ready)}, {"checks", checks}};
}

std::string conditionLine(const bus::ConditionRow& c)
{
    std::string where = c.port == 0 ? "" : fmt::format(" port {}", c.port);
    return fmt::format("    {}{} {}: {} [action: {}]\n", c.severity, where, c.code, c.message,
                       orDash(c.action));
}

nlohmann::json uplinksJson(const bus::PortValues& p)
{
    nlohmann::json out = nlohmann::json::array();
    for (const auto& u : p.uplinks)
        out.push_back({{"netdev", u.netdev},
                       {"fec_mode", u.fec_mode},
                       {"module", u.module},
                       {"values", u.values}});
    return out;
}

} // namespace

std::string dbmOf(double watts)
{
    if (!(watts > 0))
        return "-inf dBm";
    return fmt::format("{:.2f} dBm", 10.0 * std::log10(watts * 1e3));
}

std::string renderDevice(const DeviceView& d, bool color)
{
    std::string out =
        fmt::format("{} ({}, {}, firmware {}): {} {}, ", d.name, orDash(d.pci_address),
                    orDash(d.driver), orDash(d.firmware), orDash(d.role), orDash(d.function));
    out += color ? healthWord(d.health) : d.health;
    out += '\n';
    if (!d.conditions.empty()) {
        out += "  conditions:\n";
        for (const auto& c : d.conditions)
            out += conditionLine(c);
    }
    out += fmt::format("  {:<13}{}\n", "pcie:", pcieLine(d.signals.pcie));
    if (!d.signals.temperatures.empty())
        out += fmt::format("  {:<13}{}\n", "temperature:", temperatureLine(d));
    if (!d.signals.reporters.empty())
        out += fmt::format("  {:<13}{}\n", "firmware:", reporterLine(d));
    for (const auto& p : d.ports) {
        out += fmt::format("\nport {}: {} {} {} {}, ", p.number, orDash(p.netdev), orDash(p.state),
                           orDash(p.rate), orDash(p.link_layer));
        out += color ? healthWord(p.health) : p.health;
        out += ", QoS " + p.qos_status;
        if (!p.congestion.empty())
            out += ", congestion " + p.congestion;
        out += "\n";
        for (const auto& u : p.uplinks) {
            out += fmt::format("  {:<13}{}\n", u.netdev, fecLine(u));
            out += moduleLines(u, std::string(15, ' '));
        }
        out += neighborLines(p);
        out += planeLines(p);
        out += qosLines(p);
        out += readinessLines(p, color);
    }
    return out;
}

nlohmann::json deviceJson(const DeviceView& d)
{
    nlohmann::json ports = nlohmann::json::array();
    for (const auto& p : d.ports) {
        nlohmann::json conditions = nlohmann::json::array();
        for (const auto& c : p.conditions)
            conditions.push_back(conditionJson(c));
        ports.push_back({{"port", p.number},
                         {"state", p.state},
                         {"phys_state", p.phys_state},
                         {"link_layer", p.link_layer},
                         {"rate", p.rate},
                         {"netdev", p.netdev},
                         {"operstate", p.operstate},
                         {"health", p.health},
                         {"reason", textOrNull(reasonOf(d, p))},
                         {"action", actionOf(d, p) == "-" ? nlohmann::json(nullptr)
                                                          : nlohmann::json(actionOf(d, p))},
                         {"conditions", conditions},
                         {"qos",
                          {{"status", p.qos_status},
                           {"desired", p.qos_desired},
                           {"observed", p.qos_observed},
                           {"compliant", p.qos_compliant}}},
                         {"congestion", textOrNull(p.congestion)},
                         {"uplinks", uplinksJson(p)},
                         {"planes", planesJson(p)},
                         {"neighbors", neighborsJson(p)},
                         {"readiness", readinessJson(p)}});
    }
    nlohmann::json conditions = nlohmann::json::array();
    for (const auto& c : d.conditions)
        conditions.push_back(conditionJson(c));
    nlohmann::json reporters = nlohmann::json::array();
    for (const auto& r : d.signals.reporters)
        reporters.push_back({{"handle", r.handle},
                             {"name", r.name},
                             {"state", r.state},
                             {"errors", r.errors},
                             {"recovers", r.recovers}});
    return {{"device", d.name},
            {"pci_address", d.pci_address},
            {"driver", d.driver},
            {"plugin", d.plugin},
            {"firmware", d.firmware},
            {"role", d.role},
            {"function", d.function},
            {"netdevs", d.netdevs},
            {"health", d.health},
            {"conditions", conditions},
            {"ports", ports},
            {"temperatures", d.signals.temperatures},
            {"temperature_limits", d.signals.temperature_limits},
            {"pcie",
             {{"current_gts", d.signals.pcie.current_gts},
              {"current_width", d.signals.pcie.current_width},
              {"capable_gts", d.signals.pcie.capable_gts},
              {"capable_width", d.signals.pcie.capable_width}}},
            {"reporters", reporters}};
}

} // namespace nicctl
