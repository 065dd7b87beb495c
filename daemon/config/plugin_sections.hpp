// The [plugin:NAME] sections checked against what the plugins declare (ABI 1.7, abi.h
// nicd_plugin_setting_v1): the section of a plugin nicd does not have, a key the plugin does not
// take, a value not of its type. Pure: the declarations are read from the plugin files by
// plugins/plugin_schemas.hpp (nicd --check-config) or by the plugin manager (at start), before
// any plugin is created.
#pragma once

#include "config/config.hpp"
#include "text/result.hpp"

#include <optional>
#include <string>
#include <vector>

namespace nicd::config {

struct PluginSetting {
    std::string key;
    std::string type; // bool, uint, path or string
    std::string help;
};

// What nicd knows of one plugin file of the plugin directory.
struct PluginSchema {
    std::string name;                                   // nicd-plugin-<name>.so
    std::optional<std::vector<PluginSetting>> settings; // nullopt: not declared (ABI < 1.7)
    bool opened = false; // false: disabled by Enabled=no or refused, so its keys are not known
};

// Checks `value` against a declared type; an Error says what the type allows.
Result<void> checkSettingValue(const std::string& type, const std::string& value);

// The errors of the section [plugin:NAME] of `config` against the plugin's declared settings
// (nullopt: ABI < 1.7: then one warning that its keys go unchecked), each naming the file and
// line the key came from (Config::origins).
void checkPluginSection(const Config& config, const std::string& name,
                        const std::optional<std::vector<PluginSetting>>& settings,
                        std::vector<ConfigError>& errors, std::vector<ConfigError>& warnings);

// Every [plugin:NAME] section of `config` against the plugins found in `directory`: a section for
// a plugin that is not there is an error naming those that are; the keys of each plugin that
// was opened are checked (checkPluginSection).
void checkPluginSections(const Config& config, const std::vector<PluginSchema>& plugins,
                         const std::string& directory, std::vector<ConfigError>& errors,
                         std::vector<ConfigError>& warnings);

} // namespace nicd::config
