// The command line of nicd (DESIGN.md §7).
#pragma once

#include <spdlog/common.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace nicd::app {

struct Options {
    std::optional<std::filesystem::path> config_file; // default: <root>/etc/nicd/nicd.conf
    std::filesystem::path root = "/";
    // --plugin-directory: where plugins load from, instead of [daemon] PluginDirectory= (which a
    // tree given with --root never sets) or the installed directory
    std::optional<std::filesystem::path> plugin_directory;
    bool once = false;
    // --forget DEV (with --once): NICs gone on purpose, forgotten as nicctl forget does, for a
    // node where nicd is not running
    std::vector<std::string> forget;
    bool verbose = false; // -v: --once reports every port and QoS setting, not only what is not ok
    bool check_config = false;
    bool json = false; // --json: --check-config and --once print JSON
    bool no_dbus = false;
    bool dry_run = false; // --dry-run: provisioning says what it would change, changes nothing
    // --once --dry-run beside a running nicd on the same root ("pid 1234", app/run_lock.hpp):
    // nothing is written, neither state nor textfile
    std::optional<std::string> beside_daemon;
    std::string bus = "system"; // system | session | a D-Bus address
    spdlog::level::level_enum log_level = spdlog::level::info;
};

} // namespace nicd::app
