// Plugins: what is loaded, in which state, and how many devices each manages.
#include "textfile/render.hpp"

#include <array>
#include <string>

namespace nicd {

void renderPluginMetrics(const Snapshot& snap, MetricWriter& w)
{
    w.family("nicd_plugin_info", MetricType::Gauge, "A plugin nicd tried to load; value 1.");
    for (const auto& p : snap.plugins) {
        auto abi = std::to_string(p.abi_major) + "." + std::to_string(p.abi_minor);
        w.sample({{"plugin", p.name}, {"version", p.version}, {"abi", abi}}, 1.0);
    }
    w.family("nicd_plugin_up", MetricType::Gauge,
             "1 when the plugin is running (possibly degraded).");
    for (const auto& p : snap.plugins)
        w.sample({{"plugin", p.name}},
                 p.state == PluginState::Running || p.state == PluginState::Degraded ? 1.0 : 0.0);
    w.family("nicd_plugin_state", MetricType::Gauge,
             "Plugin state as a state set: 1 for the current state, 0 for the others.");
    constexpr std::array states{PluginState::Running, PluginState::Degraded, PluginState::Disabled,
                                PluginState::Failed};
    for (const auto& p : snap.plugins)
        for (auto s : states)
            w.sample({{"plugin", p.name}, {"state", toString(s)}}, p.state == s ? 1.0 : 0.0);
    w.family("nicd_plugin_devices", MetricType::Gauge, "Devices the plugin manages.");
    for (const auto& p : snap.plugins)
        w.sample({{"plugin", p.name}}, static_cast<double>(p.devices));
}

} // namespace nicd
