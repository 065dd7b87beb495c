// Pure parsers for what sysfs prints, and the small reader every sysfs value goes through. A value
// the kernel did not give us (missing file, EINVAL, EISDIR, "N/A (no PMA)", garbage) is nullopt:
// the caller treats it as absent and carries on.
#pragma once

#include "text/result.hpp"
#include "text/trim.hpp"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace nicd::sysfs {

struct NumberedState {
    int number = 0;
    std::string name; // "ACTIVE", "LinkUp"; may be empty
};

// ports/N/state and phys_state: "4: ACTIVE" -> {4, "ACTIVE"}; "5: LinkUp" -> {5, "LinkUp"}.
// The number is what counts (some trees print names the kernel never does).
std::optional<NumberedState> parseNumberedState(std::string_view text);

// ports/N/rate: "400 Gb/sec (4X NDR)" -> 400; "2.5 Gb/sec (1X SDR)" -> 2.5.
std::optional<double> parseRateGbps(std::string_view text);

// A counter file: decimal uint64 with optional surrounding whitespace; "N/A (no PMA)", negatives,
// garbage and overflow are nullopt.
std::optional<uint64_t> parseCounter(std::string_view text);

// "N/A (no PMA)": what old kernels print for a counter of a device without a PMA agent (a
// permanent condition of the device, not a read error worth retrying).
bool isNoPma(std::string_view text);

// A signed decimal int ("-1", "0"), whitespace trimmed; anything else is nullopt.
std::optional<int> parseInt(std::string_view text);

// net/<nd>/dev_id is printed in hex ("0x1"); nullopt for anything else.
std::optional<uint64_t> parseHex(std::string_view text);

// "0000:3b:00.0" looks like a PCI address (domain:bus:device.function).
bool isPciAddress(std::string_view text);

using text::trim; // text/trim.hpp

// Reads a whole small sysfs file; on failure an Error whose message is the strerror text.
Result<std::string> readFile(const std::filesystem::path& path);

// readFile, trimmed; an empty value is nullopt.
std::optional<std::string> readValue(const std::filesystem::path& path);

// The attributes of one sysfs directory, read relative to it: the directory's path (symlinks
// from /sys/class included) is walked once, then each file is one name to look up. For reading a
// few attributes of a directory once (a port's state in the full walk, one netdev's); what is
// read every cycle stays open instead (plugin::sdk::CounterDir).
class Directory {
public:
    explicit Directory(const std::filesystem::path& dir);
    ~Directory();
    Directory(const Directory&) = delete;
    Directory& operator=(const Directory&) = delete;

    // The directory exists and could be opened.
    bool exists() const { return fd_ >= 0; }
    // As readValue: trimmed, nullopt when missing, unreadable or empty. One read() per file: an
    // attribute is printed whole (at most a page), so a read shorter than asked is its end.
    std::optional<std::string> value(const char* name) const;

private:
    int fd_ = -1;
};

} // namespace nicd::sysfs
