// The simulated node's captures of what the real tools print (DESIGN.md, "simulated sources"):
// under --root the pre-failure sources read these instead of netlink, so a capture from a real
// node replays unchanged.
//   run/nicd-sim/ethtool-fec/<netdev>    `ethtool --json -I --show-fec <netdev>`
//   run/nicd-sim/module/<netdev>         the module EEPROM's bytes (signals/module_eeprom.hpp)
//   run/nicd-sim/devlink-health.json     `devlink -j health show`
// A capture that does not exist is a missing interface (no module, no FEC), not an error.
#pragma once

#include "config/host_paths.hpp"
#include "signals/read_outcome.hpp"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace nicd::signals {

std::filesystem::path fecCapture(const HostPaths& paths, const std::string& netdev);
std::filesystem::path moduleCapture(const HostPaths& paths, const std::string& netdev);
std::filesystem::path devlinkHealthCapture(const HostPaths& paths);

// The whole file (at most `limit` bytes: a larger one is Failed).
ReadOutcome<std::string> readCapture(const std::filesystem::path& file, size_t limit = 1 << 20);

} // namespace nicd::signals
