#include "config/tree_keys.hpp"

#include "config/value_parsers.hpp"
#include "paths/beneath.hpp"

namespace nicd::config {

namespace {

bool namesHostPath(const std::string& section, const std::string& key)
{
    return (section == "daemon" && key == "StateDirectory") ||
           (section == "textfile" && key == "Path") ||
           (section == "provision" && key == "DriverReadyFile") ||
           (section == "health" && key == "WiringMap");
}

} // namespace

bool ignoredInTree(const std::string& section, const std::string& key)
{
    return section == "daemon" && key == "PluginDirectory";
}

std::string ignoredInTreeWhy()
{
    return "not used under --root (a tree's configuration never names code to load): plugins "
           "load from --plugin-directory DIR, or else from " NICD_DEFAULT_PLUGIN_DIR;
}

Result<void> staysInTree(const HostPaths& paths, const std::string& section, const std::string& key,
                         std::string_view value)
{
    auto path = trim(value);
    if (!paths.simulated() || !namesHostPath(section, key) || !path.starts_with('/'))
        return {};
    const auto resolved = paths::resolveBeneath(paths.root(), path);
    if (resolved)
        return {};
    return Error{"leads out of --root " + paths.root().string() + ": " + resolved.error().message +
                 "; a tree's configuration names only paths inside the tree"};
}

std::vector<ConfigError> defaultsLeavingTree(const Config& config, const HostPaths& paths,
                                             const std::string& file)
{
    // A value a line gave was checked there (and not used if it led out): what leads out here
    // is a default.
    struct InForce {
        const char* section;
        const char* key;
        std::string value;
    };
    std::vector<InForce> in_force = {{"daemon", "StateDirectory", config.daemon.state_directory}};
    if (config.textfile.enable)
        in_force.push_back({"textfile", "Path", config.textfile.path});
    std::vector<ConfigError> errors;
    for (const auto& v : in_force)
        if (auto inside = staysInTree(paths, v.section, v.key, v.value); !inside)
            errors.push_back(
                {file, 0, v.section, v.key, "(the default) " + inside.error().message, v.value});
    return errors;
}

} // namespace nicd::config
