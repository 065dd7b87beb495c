// nicd --check-config: the configuration as nicd would load it, then its [plugin:NAME] sections
// against the plugins of the plugin directory (each library that is not disabled is opened and
// its descriptor read; no plugin is created). Text (errors on stderr: the first 20) or, with
// --json, one object on stdout: {"valid", "files", "errors", "warnings"}, each error with its
// file, line, section, key, value and message. Exit status 0 valid, 1 not.
#pragma once

#include "config/config_files.hpp"
#include "config/host_paths.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>

namespace nicd::app {

int checkConfig(const config::ConfigFiles& files, const HostPaths& paths,
                const std::optional<std::filesystem::path>& plugin_directory, bool json);

// The JSON of a check's outcome (pure).
nlohmann::json checkConfigJson(const ConfigResult& result);

} // namespace nicd::app
