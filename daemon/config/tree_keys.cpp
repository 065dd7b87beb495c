#include "config/tree_keys.hpp"

#include "config/value_parsers.hpp"
#include "paths/beneath.hpp"

namespace nicd::config {

namespace {

bool namesHostPath(const std::string& section, const std::string& key)
{
    return (section == "daemon" && key == "StateDirectory") ||
           (section == "textfile" && key == "Path") ||
           (section == "provision" && key == "DriverReadyFile");
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

std::optional<std::string> leavesTree(const HostPaths& paths, const std::string& section,
                                      const std::string& key, std::string_view value)
{
    auto path = trim(value);
    if (!paths.simulated() || !namesHostPath(section, key) || !path.starts_with('/'))
        return std::nullopt;
    const auto resolved = paths::resolveBeneath(paths.root(), path);
    if (resolved)
        return std::nullopt;
    return "leads out of --root " + paths.root().string() + ": " + resolved.error().message +
           "; a tree's configuration names only paths inside the tree";
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
        if (auto out = leavesTree(paths, v.section, v.key, v.value))
            errors.push_back({file, 0, v.section, v.key, "(the default) " + *out, v.value});
    return errors;
}

} // namespace nicd::config
