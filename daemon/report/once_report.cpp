#include "report/once_report.hpp"

#include "health/expected_ports.hpp"
#include "report/summary.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <tuple>

namespace nicd::report {

namespace {

std::string netdevOper(const Snapshot& snap, const Port& p)
{
    std::string out;
    for (const auto& nd : p.netdevs) {
        auto it = snap.netdevs.find(nd);
        out += (out.empty() ? "" : ",") + (it == snap.netdevs.end() ? "?" : it->second.operstate);
    }
    return out.empty() ? "-" : out;
}

std::string join(const std::vector<std::string>& v, const char* separator = ",")
{
    std::string out;
    for (const auto& s : v)
        out += (out.empty() ? "" : separator) + s;
    return out.empty() ? "-" : out;
}

// The worse of the port's and its device's health (a firmware error is the device's, and every
// port suffers it); nullopt when not judged.
std::optional<Health> rowHealth(const Snapshot& snap, const Device& d, const Port& p)
{
    auto h = snap.health.ports.find({d.ibdev, p.num});
    if (h == snap.health.ports.end())
        return std::nullopt;
    auto dh = snap.health.devices.find(d.ibdev);
    return dh != snap.health.devices.end() ? std::max(h->second, dh->second) : h->second;
}

std::string portTable(const Snapshot& snap, bool verbose)
{
    const std::string header = fmt::format(
        "{:<14} {:<11} {:<11} {:<7} {:<4} {:<12} {:<10} {:<11} {:<16} {:<5} {}\n", "DEVICE", "ROLE",
        "FUNCTION", "PLUGIN", "PORT", "STATE", "PHYS", "LINK", "NETDEV", "OPER", "HEALTH");
    std::string rows;
    size_t hidden = 0;
    for (const auto& d : snap.inventory.devices) {
        for (const auto& p : d.ports) {
            auto health = rowHealth(snap, d, p);
            // Healthy and up: what every port should be, left out. A port that is down is
            // listed even where nicd expects it down (an uncabled port).
            if (!verbose && health == Health::Healthy && p.active()) {
                ++hidden;
                continue;
            }
            rows += fmt::format(
                "{:<14} {:<11} {:<11} {:<7} {:<4} {:<12} {:<10} {:<11} {:<16} {:<5} {}\n", d.ibdev,
                toString(d.role), toString(d.function), d.plugin.empty() ? "-" : d.plugin, p.num,
                p.state_name.empty() ? "?" : p.state_name,
                p.phys_state_name.empty() ? "?" : p.phys_state_name,
                p.link_layer.empty() ? "?" : p.link_layer, join(p.netdevs), netdevOper(snap, p),
                health ? toString(*health) : "-");
        }
        if (d.ports.empty())
            rows +=
                fmt::format("{:<14} {:<11} {:<11} {:<7} (no ports)\n", d.ibdev, toString(d.role),
                            toString(d.function), d.plugin.empty() ? "-" : d.plugin);
    }
    std::string out = rows.empty() ? "" : header + rows;
    if (hidden > 0)
        out += fmt::format("{} healthy port{} up, not shown (nicd --once -v shows every port)\n",
                           hidden, hidden == 1 ? "" : "s");
    return out;
}

// Each condition once: those alike but for where they are (the same code, severity, message,
// action and advice) are one line naming every place.
std::string conditionLines(const Snapshot& snap)
{
    using Key = std::tuple<ConditionSeverity, std::string, std::string, Action, std::string>;
    std::vector<std::pair<Key, std::vector<std::string>>> groups; // in the order first met
    for (const auto& c : snap.health.conditions) {
        Key key{c.severity, c.code, c.message, c.action, c.advice};
        std::string where = c.device.empty() ? "node" : c.device;
        if (c.port != 0)
            where += fmt::format(" port {}", c.port);
        auto it = std::find_if(groups.begin(), groups.end(),
                               [&](const auto& g) { return g.first == key; });
        if (it == groups.end())
            groups.push_back({key, {where}});
        else
            it->second.push_back(where);
    }
    std::string out;
    for (const auto& [key, places] : groups) {
        const auto& [severity, code, message, action, advice] = key;
        std::string where = join(places, ", ");
        if (places.size() > 1)
            where += fmt::format(" ({} places)", places.size());
        out += fmt::format("{} {}: {} [{}] -> {}: {}\n", toString(severity), where, message, code,
                           toString(action), advice);
    }
    return out;
}

} // namespace

std::string qosReport(const QosSummary& q, bool verbose)
{
    if (q.ports.empty() && q.waiting.empty())
        return {};
    size_t compliant = 0;
    size_t repaired = 0;
    size_t other = 0;
    size_t unsupported = 0; // settings, not ports: a result of their own
    std::string body;
    for (const auto& [key, port] : q.ports) {
        unsupported += static_cast<size_t>(
            std::count_if(port.settings.begin(), port.settings.end(),
                          [](const QosSettingState& s) { return s.unsupported(); }));
        bool port_repaired = std::any_of(port.settings.begin(), port.settings.end(),
                                         [](const QosSettingState& s) { return s.repaired; });
        bool ok = port.status == "compliant";
        compliant += ok ? 1 : 0;
        repaired += ok && port_repaired ? 1 : 0;
        other += ok ? 0 : 1;
        if (ok && !port_repaired && !verbose)
            continue;
        body += fmt::format("  {} port {}: {}\n", key.first, key.second, port.status);
        for (const auto& s : port.settings) {
            if (s.repaired) {
                body += fmt::format("    {:<13} {} -> {} (repaired)\n", s.setting,
                                    s.was.empty() ? "?" : s.was, s.observed);
                continue;
            }
            if (s.compliant && s.error.empty() && !verbose)
                continue;
            body += fmt::format("    {:<13} want {:<10} have {:<10} {}", s.setting, s.desired,
                                s.observed.empty() ? "?" : s.observed,
                                s.unsupported() ? "not settable on this NIC"
                                : s.compliant   ? "ok"
                                                : "DIFFERS");
            if (!s.error.empty())
                body += " (" + s.error + ")";
            body += "\n";
        }
    }
    std::string out =
        fmt::format("QoS (Mode={}{}): {} port{} compliant", q.mode, q.dry_run ? ", dry run" : "",
                    compliant, compliant == 1 ? "" : "s");
    if (repaired > 0)
        out += fmt::format(" ({} repaired)", repaired);
    if (other > 0)
        out += fmt::format(", {} not", other);
    if (unsupported > 0)
        out +=
            fmt::format("; {} setting{} unsupported by the NIC (nicd cannot set {})", unsupported,
                        unsupported == 1 ? "" : "s", unsupported == 1 ? "it" : "them");
    out += "\n";
    if (!q.waiting.empty())
        out += "  not provisioned: " + q.waiting + "\n";
    return out + body;
}

std::string onceReport(const Snapshot& snap, bool verbose)
{
    std::string out = "summary: " + statusLine(snap) + "\n";
    if (snap.inventory.devices.empty() && snap.inventory.ignored.empty())
        out += "no RDMA devices found (nothing in /sys/class/infiniband): is the NIC's RDMA "
               "driver loaded? (rdma link show; lsmod)\n";
    out += portTable(snap, verbose);
    for (const auto& ig : snap.inventory.ignored)
        out +=
            fmt::format("{:<14} ignored{} (IgnoreDevices={}): nothing under it is read\n", ig.ibdev,
                        ig.pci_address.empty() ? "" : " at " + ig.pci_address, ig.matched);
    out += conditionLines(snap);
    // What the node should carry and what it has, in words (met or not).
    for (const auto& c : snap.health.inventory)
        out += "inventory: " + health::describe(c) + "\n";
    out += fmt::format("node health: {}\n", toString(snap.health.node));
    out += qosReport(snap.qos, verbose);
    for (const auto& p : snap.plugins) {
        out += fmt::format("plugin {}: {}", p.name, toString(p.state));
        if (!p.version.empty())
            out += fmt::format(" (version {}, {} devices)", p.version, p.devices);
        if (!p.last_error.empty())
            out += fmt::format(": {}", p.last_error);
        out += "\n";
    }
    size_t errors = 0;
    for (const auto& ds : snap.samples)
        errors += ds.errors.size();
    out += fmt::format("cycle {} took {:.1f} ms; {} read errors this cycle\n", snap.cycle,
                       snap.duration_seconds * 1000.0, errors);
    for (const auto& ds : snap.samples)
        for (const auto& e : ds.errors)
            out += fmt::format("  read error: {}: {}\n", e.what, e.message);
    return out;
}

nlohmann::json onceJson(const Snapshot& snap)
{
    auto textOrNull = [](const std::string& s) {
        return s.empty() ? nlohmann::json(nullptr) : nlohmann::json(s);
    };
    nlohmann::json devices = nlohmann::json::array();
    for (const auto& d : snap.inventory.devices) {
        nlohmann::json ports = nlohmann::json::array();
        for (const auto& p : d.ports) {
            auto health = rowHealth(snap, d, p);
            ports.push_back({{"port", p.num},
                             {"state", textOrNull(p.state_name)},
                             {"phys_state", textOrNull(p.phys_state_name)},
                             {"link_layer", textOrNull(p.link_layer)},
                             {"netdevs", p.netdevs},
                             {"health", health ? nlohmann::json(toString(*health)) : nullptr}});
        }
        devices.push_back({{"device", d.ibdev},
                           {"role", toString(d.role)},
                           {"function", toString(d.function)},
                           {"plugin", textOrNull(d.plugin)},
                           {"ports", ports}});
    }
    nlohmann::json ignored = nlohmann::json::array();
    for (const auto& ig : snap.inventory.ignored)
        ignored.push_back({{"device", ig.ibdev},
                           {"pci_address", textOrNull(ig.pci_address)},
                           {"matched", ig.matched}});
    nlohmann::json conditions = nlohmann::json::array();
    for (const auto& c : snap.health.conditions)
        conditions.push_back(
            {{"severity", toString(c.severity)},
             {"device", textOrNull(c.device)},
             {"port", c.port == 0 ? nlohmann::json(nullptr) : nlohmann::json(c.port)},
             {"code", c.code},
             {"message", c.message},
             {"action", toString(c.action)},
             {"advice", c.advice}});
    nlohmann::json inventory = nlohmann::json::array();
    for (const auto& c : snap.health.inventory)
        inventory.push_back(health::describe(c));
    nlohmann::json qos_ports = nlohmann::json::array();
    for (const auto& [key, port] : snap.qos.ports) {
        nlohmann::json settings = nlohmann::json::array();
        for (const auto& s : port.settings)
            settings.push_back({{"setting", s.setting},
                                {"desired", s.desired},
                                {"observed", textOrNull(s.observed)},
                                {"compliant", s.compliant && !s.unsupported()},
                                {"unsupported", s.unsupported()},
                                {"repaired", s.repaired},
                                {"was", textOrNull(s.was)},
                                {"error", textOrNull(s.error)}});
        qos_ports.push_back({{"device", key.first},
                             {"port", key.second},
                             {"status", port.status},
                             {"settings", settings}});
    }
    nlohmann::json plugins = nlohmann::json::array();
    for (const auto& p : snap.plugins)
        plugins.push_back({{"name", p.name},
                           {"state", toString(p.state)},
                           {"version", textOrNull(p.version)},
                           {"devices", p.devices},
                           {"last_error", textOrNull(p.last_error)}});
    nlohmann::json read_errors = nlohmann::json::array();
    for (const auto& ds : snap.samples)
        for (const auto& e : ds.errors)
            read_errors.push_back({{"what", e.what}, {"message", e.message}});
    return {{"summary", statusLine(snap)},
            {"node_health", toString(snap.health.node)},
            {"devices", devices},
            {"ignored", ignored},
            {"conditions", conditions},
            {"inventory", inventory},
            {"qos",
             {{"mode", textOrNull(snap.qos.mode)},
              {"dry_run", snap.qos.dry_run},
              {"waiting", textOrNull(snap.qos.waiting)},
              {"ports", qos_ports}}},
            {"plugins", plugins},
            {"cycle", snap.cycle},
            {"duration_seconds", snap.duration_seconds},
            {"read_errors", read_errors}};
}

int onceExitCode(const Snapshot& snap, bool done)
{
    return done ? toNumber(snap.health.node) : 3;
}

} // namespace nicd::report
