// Plugins: what is loaded, in which state, and how many devices each manages.
#include "textfile/render.hpp"

#include <array>
#include <string>
#include <vector>

namespace nicd::textfile {

namespace {

int rank(PluginState s)
{
    switch (s) {
    case PluginState::Running:
        return 3;
    case PluginState::Degraded:
        return 2;
    case PluginState::Disabled:
        return 1;
    case PluginState::Failed:
        return 0;
    }
    return 0;
}

// One status per plugin name: two files may carry the same name (the second is refused), and
// a series may appear only once. The one that runs is shown; else the first.
std::vector<const PluginStatus*> onePerName(const std::vector<PluginStatus>& plugins)
{
    std::vector<const PluginStatus*> out;
    for (const auto& p : plugins) {
        bool seen = false;
        for (auto& q : out)
            if (q->name == p.name) {
                seen = true;
                if (rank(p.state) > rank(q->state))
                    q = &p;
            }
        if (!seen)
            out.push_back(&p);
    }
    return out;
}

} // namespace

void renderPluginMetrics(const Snapshot& snap, bool all, MetricWriter& w)
{
    auto plugins = onePerName(snap.plugins);
    w.family("nicd_plugin_info", MetricType::Gauge, "A plugin nicd tried to load; value 1.");
    for (const auto* p : plugins) {
        auto abi = std::to_string(p->abi_major) + "." + std::to_string(p->abi_minor);
        w.sample({{"plugin", p->name}, {"version", p->version}, {"abi", abi}}, 1.0);
    }
    w.family("nicd_plugin_up", MetricType::Gauge,
             "1 when the plugin is running (possibly degraded).");
    for (const auto* p : plugins)
        w.sample({{"plugin", p->name}},
                 p->state == PluginState::Running || p->state == PluginState::Degraded ? 1.0 : 0.0);
    w.family("nicd_plugin_state", MetricType::Gauge,
             "Plugin state, value 1 for the state it is in (running, degraded, disabled, "
             "failed); Counters=all: the other states too, 0.");
    constexpr std::array states{PluginState::Running, PluginState::Degraded, PluginState::Disabled,
                                PluginState::Failed};
    for (const auto* p : plugins)
        for (auto s : states)
            if (all || p->state == s)
                w.sample({{"plugin", p->name}, {"state", toString(s)}}, p->state == s ? 1.0 : 0.0);
    w.family("nicd_plugin_devices", MetricType::Gauge, "Devices the plugin manages.");
    for (const auto* p : plugins)
        w.sample({{"plugin", p->name}}, static_cast<double>(p->devices));
}

} // namespace nicd::textfile
