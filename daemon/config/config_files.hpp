// Which configuration files nicd reads, and loading them with every error logged.
#pragma once

#include "config/config.hpp"
#include "config/host_paths.hpp"

#include <filesystem>
#include <optional>

namespace nicd::config {

struct ConfigFiles {
    std::filesystem::path main;       // nicd.conf
    std::filesystem::path dropin_dir; // nicd.conf.d
    bool main_required = false;       // named by --config: its absence is an error
};

// --config FILE is taken as given (its drop-ins are FILE.d/); otherwise /etc/nicd/nicd.conf
// under --root.
ConfigFiles configFiles(const std::optional<std::filesystem::path>& config_file,
                        const HostPaths& paths);

// Loads the configuration (a tree's, under --root: config/tree_keys.hpp), with `dry_run`
// (--dry-run) over DryRun=; logs every warning, and on error the problems (file, line, key; the
// first kShownConfigErrors), and returns nullopt. At start and on every reload.
// `problem`, when given, gets the first error and how many more ("<file>:<line>: ... (and 2 more
// errors)") when there are errors.
std::optional<Config> loadAndReport(const ConfigFiles& files, const HostPaths& paths, bool dry_run,
                                    std::string* problem = nullptr);

} // namespace nicd::config
