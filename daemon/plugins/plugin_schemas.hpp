// The plugins of a directory as the configuration's [plugin:NAME] sections are checked against
// them: for nicd --check-config, each file's name and, for those the configuration does not
// disable, the settings it declares (a library is opened and its descriptor checked as at start;
// no plugin is created); at start, the same checks the plugin manager makes as it loads.
#pragma once

#include "config/config.hpp"
#include "config/plugin_sections.hpp"

#include <nicd/plugin/abi.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace nicd::plugins {

// Refusals (a file that is not a plugin, a descriptor that fails its checks) are errors about
// that file, appended to `errors`.
std::vector<config::PluginSchema> readPluginSchemas(const std::filesystem::path& dir,
                                                    const Config& config,
                                                    std::vector<ConfigError>& errors);

// At start, before a plugin is created: its section checked against the settings its
// descriptor declares; warnings and errors are logged, and the refusal ("<file>:<line>: ...",
// and how many more) returned when there is an error.
std::optional<std::string> sectionRefusal(const Config& config, const std::string& name,
                                          const nicd_plugin_descriptor_v1* descriptor);

// At start, after the directory's plugins are loaded: a section for a plugin that is not among
// `files` configures nothing; logged as an error (nicd --check-config calls it one).
void logSectionsWithoutPlugin(const Config& config, const std::vector<std::filesystem::path>& files,
                              const std::filesystem::path& dir);

} // namespace nicd::plugins
