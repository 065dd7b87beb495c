// Loading one plugin file: dlopen, the entry symbol, and every check of the descriptor before
// any plugin code other than the entry function runs.
#pragma once

#include "model/plugin_status.hpp"

#include <nicd/plugin/abi.h>

#include <filesystem>
#include <string>

namespace nicd {

struct LoadedLibrary {
    void* handle = nullptr; // dlopen handle; kept open for the daemon's lifetime
    const nicd_plugin_descriptor_v1* descriptor = nullptr;
};

// On success fills `lib` and status.{name,version,abi_*}; on failure sets status.state = Failed
// and status.last_error to a precise reason naming the file. Never throws.
bool loadPluginLibrary(const std::filesystem::path& file, LoadedLibrary& lib, PluginStatus& status);

// The name a plugin file must declare: nicd-plugin-<name>.so -> <name>.
std::string pluginNameFromFile(const std::filesystem::path& file);

// Checks a descriptor (pure): empty string when acceptable, else the reason.
std::string checkDescriptor(const nicd_plugin_descriptor_v1* d, const std::string& expected_name);

} // namespace nicd
