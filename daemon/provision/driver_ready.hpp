// Readiness before provisioning: the file the NVIDIA network-operator's driver container
// creates once the driver is loaded (/run/mellanox/drivers/.driver-ready).
#pragma once

#include "config/config.hpp"
#include "config/host_paths.hpp"

#include <filesystem>
#include <optional>

namespace nicd::provision {

inline constexpr const char* kOperatorDriverReadyFile = "/run/mellanox/drivers/.driver-ready";

// The file to wait for, resolved under the root; nullopt = do not wait. DriverReadyFile= unset
// or "auto": the operator's file when its directory exists (the operator is present), else none;
// "": none; a path: that file.
std::optional<std::filesystem::path> driverReadyFile(const ProvisionConfig& config,
                                                     const HostPaths& paths);

} // namespace nicd::provision
