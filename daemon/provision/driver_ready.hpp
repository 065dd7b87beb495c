// Readiness before provisioning: the file a vendor's driver deployment creates once the driver is
// loaded. [provision] DriverReadyFile=<path> names one file every device waits for; unset or
// "auto", each plugin names its own (plugin ABI 1.6, PluginTraits::driver_ready_file: mlx5's is
// the NVIDIA network operator's) and only that plugin's devices wait for it, where its directory
// exists (the deployment is present).
#pragma once

#include "config/config.hpp"
#include "config/host_paths.hpp"
#include "model/inventory.hpp"
#include "provision/port_selection.hpp"

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace nicd::provision {

// DriverReadyFile=<path>: that file, resolved under the root; nullopt when the setting names
// none (unset, "auto", or "": never wait).
std::optional<std::filesystem::path> namedReadyFile(const ProvisionConfig& config,
                                                    const HostPaths& paths);

// DriverReadyFile= unset or "auto": the ready files of `plugin_files` (by plugin; absolute host
// paths) whose directory exists, resolved under the root; none under any other setting.
std::map<std::string, std::filesystem::path>
pluginReadyFiles(const ProvisionConfig& config, const HostPaths& paths,
                 const std::map<std::string, std::string>& plugin_files);

// The plugins whose ready file is missing, and their devices' ports held back meanwhile.
class PluginReadyWaits {
public:
    // Looks at each plugin's file again (a stat each): true when which plugins wait changed.
    // Logs a wait as it starts and ends, and once when it has lasted `timeout_ms`.
    bool refresh(const ProvisionConfig& config, const HostPaths& paths,
                 const std::map<std::string, std::string>& plugin_files, uint64_t now_usec);
    // The managed plans of devices whose plugin waits become "waiting: <file> ..." (provisioned
    // once the file appears).
    void hold(std::vector<PortPlan>& plans, const Inventory& inventory) const;
    const std::map<std::string, std::string>& waiting() const { return waiting_; }
    // No plugin waits, or every wait has lasted the timeout (READY=1 need not wait longer).
    bool settled() const { return timeout_logged_.size() >= waiting_.size(); }

private:
    std::map<std::string, std::string> waiting_; // plugin -> its missing file (a host path)
    std::map<std::string, uint64_t> since_usec_; // plugin -> when its wait started
    std::set<std::string> timeout_logged_;       // plugins whose wait past the timeout was logged
};

} // namespace nicd::provision
