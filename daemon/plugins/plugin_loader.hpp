// Loading one plugin file: dlopen, the entry symbol, and every check of the descriptor before
// any plugin code other than the entry function runs.
#pragma once

#include "config/config.hpp"
#include "config/plugin_sections.hpp"
#include "model/plugin_status.hpp"

#include <nicd/plugin/abi.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace nicd::plugins {

struct LoadedLibrary {
    void* handle = nullptr; // dlopen handle; kept open for the daemon's lifetime
    const nicd_plugin_descriptor_v1* descriptor = nullptr;
};

// On success fills `lib` and status.{name,version,abi_*}; on failure sets status.state = Failed
// and status.last_error to a precise reason naming the file. Never throws.
bool loadPluginLibrary(const std::filesystem::path& file, LoadedLibrary& lib, PluginStatus& status);

// False when the configuration disables the plugin ([plugin:<name>] Enabled=no): its library is
// then not even opened.
bool pluginEnabled(const Config& config, const std::string& name);

// The name a plugin file must declare: nicd-plugin-<name>.so -> <name>.
std::string pluginNameFromFile(const std::filesystem::path& file);

// Checks a descriptor (pure): empty string when acceptable, else the reason. Its settings too
// (ABI 1.7): each key letters, digits and '_', not Enabled, given once, of a known type; at most
// kMaxPluginSettings.
std::string checkDescriptor(const nicd_plugin_descriptor_v1* d, const std::string& expected_name);
inline constexpr size_t kMaxPluginSettings = 256;

// The settings a checked descriptor declares (ABI 1.7), or nullopt for a plugin of an older ABI.
std::optional<std::vector<config::PluginSetting>>
declaredSettings(const nicd_plugin_descriptor_v1* d);

} // namespace nicd::plugins
