// Reading a directory of counter files (sysfs counters/, hw_counters/) cheaply: one directory
// fd, openat() per file, no path objects. Shared by the daemon and plugins.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace nicd::plugin::sdk {

// Calls `fn(name, content, err)` for every entry of `dir` in name order: `err` is 0 and `content`
// the file's text, or `err` is the errno of the failed open/read. `skip(name)` returning true
// skips a file without opening it (for backoff). Returns 0, or the errno of opening `dir`.
int forEachFile(
    const std::string& dir, const std::function<bool(std::string_view name)>& skip,
    const std::function<void(std::string_view name, std::string_view content, int err)>& fn);

// A decimal counter value with optional surrounding whitespace; nullopt for anything else
// ("N/A (no PMA)", negative, overflow, empty).
std::optional<uint64_t> parseCounterValue(std::string_view text);

} // namespace nicd::plugin::sdk
