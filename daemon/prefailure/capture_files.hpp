// The simulated node's captures of what the real tools print (DESIGN.md, "simulated sources"):
// under --root the pre-failure sources read these instead of netlink, so a capture from a real
// node replays unchanged.
//   run/nicd-sim/ethtool-fec/<netdev>    `ethtool --json -I --show-fec <netdev>`
//   run/nicd-sim/module/<netdev>         the module EEPROM's bytes (prefailure/module_eeprom.hpp)
//   run/nicd-sim/devlink-health.json     `devlink -j health show`
// A capture that does not exist is a missing interface (no module, no FEC): Unsupported, not an
// error.
#pragma once

#include "config/host_paths.hpp"
#include "prefailure/decode_error.hpp"
#include "prefailure/netlink_reply.hpp"

#include <fmt/format.h>

#include <cstdint>
#include <filesystem>
#include <string>

namespace nicd::prefailure {

std::filesystem::path fecCapture(const HostPaths& paths, const std::string& netdev);
std::filesystem::path moduleCapture(const HostPaths& paths, const std::string& netdev);
std::filesystem::path devlinkHealthCapture(const HostPaths& paths);

// The whole file (at most `limit` bytes: a larger one is Failed).
Reply<std::string> readCapture(const std::filesystem::path& file, size_t limit = 1 << 20);

// The capture as `decode` reads it (T decode(const std::string&)); a DecodeError is Failed,
// naming the file.
template <typename T, typename Decode>
Reply<T> decodeCapture(const std::filesystem::path& file, Decode decode, size_t limit = 1 << 20)
{
    auto text = readCapture(file, limit);
    if (!text.ok())
        return text.template failureAs<T>();
    try {
        return Reply<T>::success(decode(text.value));
    } catch (const DecodeError& e) {
        return Reply<T>::failed(fmt::format("{}: {}", file.string(), e.what()));
    }
}

} // namespace nicd::prefailure
