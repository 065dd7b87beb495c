#include "report/summary.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace nicd::report {

namespace {
bool portDown(const Port& p)
{
    return p.state && *p.state != 4;
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

} // namespace nicd::report
