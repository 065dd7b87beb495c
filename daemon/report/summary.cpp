#include "report/summary.hpp"

#include "health/expected_ports.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace nicd {

namespace {
bool portDown(const Port& p)
{
    return p.state && *p.state != 4;
}

std::string netdevOper(const Snapshot& snap, const Port& p)
{
    std::string out;
    for (const auto& nd : p.netdevs) {
        auto it = snap.netdevs.find(nd);
        if (!out.empty())
            out += ",";
        out += it == snap.netdevs.end() ? "?" : it->second.operstate;
    }
    return out.empty() ? "-" : out;
}

std::string join(const std::vector<std::string>& v)
{
    std::string out;
    for (const auto& s : v)
        out += (out.empty() ? "" : ",") + s;
    return out.empty() ? "-" : out;
}
} // namespace

std::string statusLine(const Snapshot& snap)
{
    size_t ports = 0;
    size_t down = 0;
    for (const auto& d : snap.inventory.devices)
        for (const auto& p : d.ports) {
            ++ports;
            down += portDown(p) ? 1 : 0;
        }
    size_t running = 0;
    for (const auto& p : snap.plugins)
        running += (p.state == PluginState::Running || p.state == PluginState::Degraded) ? 1 : 0;
    std::string line = fmt::format("{} devices, {} ports", snap.inventory.devices.size(), ports);
    if (down > 0)
        line += fmt::format(" ({} down)", down);
    line += fmt::format(", {} of {} plugins running", running, snap.plugins.size());
    size_t fatal = 0;
    size_t degraded = 0;
    for (const auto& [dev, h] : snap.health.devices) {
        fatal += h == Health::Fatal ? 1 : 0;
        degraded += h == Health::Degraded ? 1 : 0;
    }
    if (fatal + degraded > 0)
        line += fmt::format("; {} fatal, {} degraded devices", fatal, degraded);
    return line;
}

std::string qosReport(const QosSummary& q)
{
    if (q.ports.empty() && q.waiting.empty())
        return {};
    std::string out = fmt::format("QoS (Mode={}{}):\n", q.mode, q.dry_run ? ", dry run" : "");
    if (!q.waiting.empty())
        out += "  not provisioned: " + q.waiting + "\n";
    for (const auto& [key, port] : q.ports) {
        out += fmt::format("  {} port {}: {}\n", key.first, key.second, port.status);
        for (const auto& s : port.settings) {
            out +=
                fmt::format("    {:<13} want {:<10} have {:<10} {}", s.setting, s.desired,
                            s.observed.empty() ? "?" : s.observed, s.compliant ? "ok" : "DIFFERS");
            if (!s.error.empty())
                out += " (" + s.error + ")";
            out += "\n";
        }
    }
    return out;
}

std::string onceReport(const Snapshot& snap)
{
    std::string out = fmt::format(
        "{:<14} {:<11} {:<11} {:<7} {:<4} {:<12} {:<10} {:<11} {:<16} {:<5} {}\n", "DEVICE", "ROLE",
        "FUNCTION", "PLUGIN", "PORT", "STATE", "PHYS", "LINK", "NETDEV", "OPER", "HEALTH");
    for (const auto& d : snap.inventory.devices) {
        for (const auto& p : d.ports) {
            // The row shows the worse of the port's and its device's health (a firmware error
            // is the device's, and every port suffers it).
            auto h = snap.health.ports.find({d.ibdev, p.num});
            auto dh = snap.health.devices.find(d.ibdev);
            std::string health = "-";
            if (h != snap.health.ports.end())
                health = toString(dh != snap.health.devices.end() ? std::max(h->second, dh->second)
                                                                  : h->second);
            out += fmt::format("{:<14} {:<11} {:<11} {:<7} {:<4} {:<12} {:<10} {:<11} {:<16} {:<5} "
                               "{}\n",
                               d.ibdev, toString(d.role), toString(d.function),
                               d.plugin.empty() ? "-" : d.plugin, p.num,
                               p.state_name.empty() ? "?" : p.state_name,
                               p.phys_state_name.empty() ? "?" : p.phys_state_name,
                               p.link_layer.empty() ? "?" : p.link_layer, join(p.netdevs),
                               netdevOper(snap, p), health);
        }
        if (d.ports.empty())
            out += fmt::format("{:<14} {:<11} {:<11} {:<7} (no ports)\n", d.ibdev, toString(d.role),
                               toString(d.function), d.plugin.empty() ? "-" : d.plugin);
    }
    for (const auto& ig : snap.inventory.ignored)
        out +=
            fmt::format("{:<14} ignored{} (IgnoreDevices={}): nothing under it is read\n", ig.ibdev,
                        ig.pci_address.empty() ? "" : " at " + ig.pci_address, ig.matched);
    for (const auto& c : snap.health.conditions)
        out += fmt::format("{} {}{}: {} [{}] -> {}: {}\n", toString(c.severity),
                           c.device.empty() ? "node" : c.device,
                           c.port ? fmt::format(" port {}", c.port) : "", c.message, c.code,
                           toString(c.action), c.advice);
    // What the node should carry and what it has, in words (met or not).
    for (const auto& c : snap.health.inventory)
        out += "inventory: " + health::describe(c) + "\n";
    out += fmt::format("node health: {}\n", toString(snap.health.node));
    out += qosReport(snap.qos);
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

} // namespace nicd
