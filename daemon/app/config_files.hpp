// Which configuration files nicd reads, and loading them with every error logged.
#pragma once

#include "app/options.hpp"
#include "config/config.hpp"
#include "config/host_paths.hpp"

#include <filesystem>

namespace nicd {

struct ConfigFiles {
    std::filesystem::path main;       // nicd.conf
    std::filesystem::path dropin_dir; // nicd.conf.d
};

// --config FILE is taken as given (its drop-ins are FILE.d/); otherwise /etc/nicd/nicd.conf
// under --root.
ConfigFiles configFiles(const Options& options, const HostPaths& paths);

// Loads the configuration (a tree's, under --root: config/tree_keys.hpp); logs every warning, and
// on error every problem (file, line, key), and returns nullopt.
std::optional<Config> loadAndReport(const ConfigFiles& files, const HostPaths& paths);

} // namespace nicd
