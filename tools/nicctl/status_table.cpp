#include "status_table.hpp"

#include "device_report.hpp"
#include "replies.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace nicctl {

std::string orDash(const std::string& s)
{
    return s.empty() ? "-" : s;
}

namespace {

int rank(const std::string& severity)
{
    if (severity == "fatal")
        return 2;
    if (severity == "degraded")
        return 1;
    return 0;
}

const char* colorOf(const std::string& word)
{
    if (word == "healthy" || word == "compliant" || word == "ecn_working" || word == "idle" ||
        word == "yes")
        return "\033[32m";
    if (word == "degraded" || word == "noncompliant" || word == "unknown" || word == "error" ||
        word == "pfc_only" || word == "pause_storm" || word == "lossy")
        return "\033[33m";
    if (word == "fatal" || word == "no")
        return "\033[31m";
    return "";
}

// Pads to `width` visible columns, colouring the word when asked.
std::string cell(const std::string& text, size_t width, bool color)
{
    std::string padded = fmt::format("{:<{}}", text, width);
    const char* c = color ? colorOf(text) : "";
    if (*c == '\0')
        return padded;
    return c + text + "\033[0m" + padded.substr(text.size());
}

std::string linkOf(const bus::PortValues& p)
{
    if (!p.operstate.empty() && p.operstate != "up" && p.state == "ACTIVE")
        return p.state + "/" + p.operstate;
    return orDash(p.state);
}

// The switch port the cable reaches, as LLDP says: "leaf-07:swp12"; "leaf-07:swp12+1" when the
// port hears another neighbour too; "-" when it hears none.
std::string switchOf(const bus::PortValues& p)
{
    if (p.neighbors.empty())
        return "-";
    const auto& n = p.neighbors.front();
    std::string s = n.switch_name + ":" + n.switch_port;
    if (p.neighbors.size() > 1)
        s += fmt::format("+{}", p.neighbors.size() - 1);
    return s;
}

// Among conditions of one severity, the one nearest the cause: a dead link explains its
// counters, not the other way round.
int sourceRank(const std::string& source)
{
    for (int i = 0; const char* s : {"counter", "signal", "readiness", "lldp", "kernel", "driver",
                                     "device", "link"}) {
        if (source == s)
            return i;
        ++i;
    }
    return -1;
}

bool moreImportant(const bus::ConditionRow& a, const bus::ConditionRow& b)
{
    if (rank(a.severity) != rank(b.severity))
        return rank(a.severity) > rank(b.severity);
    return sourceRank(a.source) > sourceRank(b.source);
}

} // namespace

namespace {
const bus::ConditionRow* worstOf(const DeviceView& device, const bus::PortValues& port)
{
    const bus::ConditionRow* worst = nullptr;
    auto consider = [&worst](const bus::ConditionRow& c) {
        if (!worst || moreImportant(c, *worst))
            worst = &c;
    };
    for (const auto& c : device.conditions)
        if (c.port == 0 || c.port == port.number)
            consider(c);
    for (const auto& c : port.conditions)
        consider(c);
    return worst;
}
} // namespace

nlohmann::json textOrNull(const std::string& s)
{
    return s.empty() ? nlohmann::json(nullptr) : nlohmann::json(s);
}

nlohmann::json readyJson(const std::string& ready)
{
    if (ready == "yes")
        return true;
    if (ready == "no")
        return false;
    return nullptr;
}

nlohmann::json conditionJson(const bus::ConditionRow& c)
{
    return {{"code", c.code},
            {"severity", c.severity},
            {"port", c.port},
            {"source", c.source},
            {"message", c.message},
            {"advice", textOrNull(c.advice)},
            {"action", textOrNull(c.action)},
            {"since_usec", c.since_usec}};
}

std::string healthWord(const std::string& health)
{
    return cell(health, 0, true);
}

std::string reasonOf(const DeviceView& device, const bus::PortValues& port)
{
    const auto* worst = worstOf(device, port);
    return worst ? worst->code + ": " + worst->message : "";
}

std::string actionOf(const DeviceView& device, const bus::PortValues& port)
{
    const auto* worst = worstOf(device, port);
    return worst && !worst->action.empty() ? worst->action : "-";
}

namespace {
constexpr std::string_view kNoPlugin = "no plugin";
} // namespace

std::string renderStatus(const NodeView& node, bool color)
{
    const std::vector<std::string> head{"DEVICE",     "ROLE",  "PORT",   "NETDEV", "SWITCH",
                                        "LINK",       "RATE",  "LAYER",  "QOS",    "HEALTH",
                                        "CONGESTION", "READY", "ACTION", "REASON"};
    std::vector<std::vector<std::string>> rows;
    size_t ports = 0;
    std::map<std::string, size_t> by_health;
    for (const auto& d : node.devices) {
        if (d.ports.empty()) {
            rows.push_back({d.name, orDash(d.role), "-", "-", "-", "-", "-", "-", "-", d.health,
                            "-", "-", actionOf(d, bus::PortValues{}),
                            d.conditions.empty() ? "" : reasonOf(d, bus::PortValues{})});
            continue;
        }
        for (const auto& p : d.ports) {
            ++ports;
            // A port is as healthy as the worse of itself and its device.
            std::string health = rank(d.health) > rank(p.health) ? d.health : p.health;
            ++by_health[health];
            // "skipped: virtual function ..." shows as "skipped": the reason is in --json and
            // on the bus (QosStatus).
            // A device no plugin claims has no QoS, vendor counters or driver lines: say so
            // plainly rather than "skipped".
            std::string qos = d.plugin.empty() ? std::string(kNoPlugin)
                                               : p.qos_status.substr(0, p.qos_status.find(':'));
            rows.push_back({d.name, orDash(d.role), std::to_string(p.number), orDash(p.netdev),
                            switchOf(p), linkOf(p), orDash(p.rate), orDash(p.link_layer), qos,
                            health, orDash(p.congestion), orDash(p.ready), actionOf(d, p),
                            reasonOf(d, p)});
        }
    }
    std::vector<size_t> width(head.size());
    for (size_t i = 0; i < head.size(); ++i)
        width[i] = head[i].size();
    for (const auto& r : rows)
        for (size_t i = 0; i < r.size(); ++i)
            width[i] = std::max(width[i], r[i].size());

    std::string out;
    for (size_t i = 0; i < head.size(); ++i)
        out += i + 1 == head.size() ? head[i] : fmt::format("{:<{}} ", head[i], width[i]);
    out += '\n';
    for (const auto& r : rows) {
        for (size_t i = 0; i < r.size(); ++i) {
            bool colored = i >= 8 && i <= 11; // QOS, HEALTH, CONGESTION, READY
            if (i + 1 == r.size())
                out += r[i];
            else
                out += (colored ? cell(r[i], width[i], color)
                                : fmt::format("{:<{}}", r[i], width[i])) +
                       " ";
        }
        // No trailing blanks when the reason is empty.
        while (!out.empty() && out.back() == ' ')
            out.pop_back();
        out += '\n';
    }
    out += fmt::format(
        "\n{} devices, {} ports: {} healthy, {} degraded, {} fatal. Node: ", node.devices.size(),
        ports, by_health["healthy"], by_health["degraded"], by_health["fatal"]);
    out += color ? cell(node.node_health, 0, true) : node.node_health;
    if (!node.provision_mode.empty())
        out += ". Provisioning: " + node.provision_mode;
    out += ".\n";
    if (node.last_reload_usec != 0)
        out += "Last reload: " + isoTime(node.last_reload_usec) + ", " + node.last_reload_result +
               "\n";
    // The node's own conditions (too few compute ports) and those of NICs that are gone.
    for (const auto& c : node.node_conditions)
        out += fmt::format("{} {}: {}: {} -> {}\n", color ? cell(c.severity, 0, true) : c.severity,
                           c.device.empty() ? "node" : c.device + " (gone)", c.code, c.message,
                           orDash(c.action));
    for (const auto& d : node.devices)
        if (d.plugin.empty())
            out += fmt::format("{}: no plugin (driver {}): discovery, link, PMA counters and the "
                               "FEC, optics and PCIe signals only; no QoS, vendor counters or "
                               "driver log lines\n",
                               d.name, orDash(d.driver));
    for (const auto& p : node.plugins)
        if (p.state != "running")
            out += fmt::format("plugin {}: {}{}\n", p.name, p.state,
                               p.last_error.empty() ? "" : " (" + p.last_error + ")");
    return out;
}

nlohmann::json statusJson(const NodeView& node)
{
    nlohmann::json devices = nlohmann::json::array();
    for (const auto& d : node.devices)
        devices.push_back(deviceJson(d));
    nlohmann::json plugins = nlohmann::json::array();
    for (const auto& p : node.plugins)
        plugins.push_back({{"name", p.name},
                           {"version", p.version},
                           {"state", p.state},
                           {"last_error", p.last_error}});
    nlohmann::json node_conditions = nlohmann::json::array();
    for (const auto& c : node.node_conditions) {
        auto j = conditionJson(c);
        j["device"] = c.device;
        node_conditions.push_back(std::move(j));
    }
    return {{"version", node.version},
            {"health", node.health},
            {"node_health", node.node_health},
            {"provision_mode", node.provision_mode},
            {"last_cycle_usec", node.last_cycle_usec},
            {"last_reload", node.last_reload_usec == 0
                                ? nlohmann::json(nullptr)
                                : nlohmann::json{{"usec", node.last_reload_usec},
                                                 {"result", node.last_reload_result}}},
            {"devices", devices},
            {"node_conditions", node_conditions},
            {"plugins", plugins}};
}

} // namespace nicctl
