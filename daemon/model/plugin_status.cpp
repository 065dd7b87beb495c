#include "model/plugin_status.hpp"

namespace nicd {

const char* toString(PluginState state)
{
    switch (state) {
    case PluginState::Failed:
        return "failed";
    case PluginState::Disabled:
        return "disabled";
    case PluginState::Running:
        return "running";
    case PluginState::Degraded:
        return "degraded";
    }
    return "unknown";
}

} // namespace nicd
