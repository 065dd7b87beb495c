// Readiness before provisioning: the file a vendor's driver deployment creates once the driver is
// loaded (the plugin names it: plugin ABI 1.6, PluginTraits::driver_ready_file), or the one
// [provision] DriverReadyFile= names.
#pragma once

#include "config/config.hpp"
#include "config/host_paths.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace nicd::provision {

// The files to wait for, resolved under the root; none = do not wait. DriverReadyFile= unset or
// "auto": each of `plugin_files` (the running plugins' ready files, absolute host paths) whose
// directory exists (that deployment is present), else none; "": none; a path: that file.
std::vector<std::filesystem::path> driverReadyFiles(const ProvisionConfig& config,
                                                    const HostPaths& paths,
                                                    const std::vector<std::string>& plugin_files);

} // namespace nicd::provision
