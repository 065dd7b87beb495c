// The plugins of a directory as nicd --check-config checks the configuration against them: each
// file's name and, for those the configuration does not disable, the settings it declares. A
// library is opened and its descriptor checked as at start; no plugin is created.
#pragma once

#include "config/config.hpp"
#include "config/plugin_sections.hpp"

#include <filesystem>
#include <vector>

namespace nicd {

// Refusals (a file that is not a plugin, a descriptor that fails its checks) are errors about
// that file, appended to `errors`.
std::vector<config::PluginSchema> readPluginSchemas(const std::filesystem::path& dir,
                                                    const Config& config,
                                                    std::vector<ConfigError>& errors);

} // namespace nicd
