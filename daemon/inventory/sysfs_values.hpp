// Pure parsers for what sysfs prints, and one small reader. A value the kernel did not give us
// (missing file, EINVAL, "N/A (no PMA)", garbage) is nullopt: the caller treats it as absent.
#pragma once

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

// "4: ACTIVE" -> {4, "ACTIVE"}; "5: LinkUp" -> {5, "LinkUp"}.
std::optional<NumberedState> parseNumberedState(std::string_view text);

// "400 Gb/sec (4X NDR)" -> 400; "2.5 Gb/sec (1X SDR)" -> 2.5.
std::optional<double> parseRateGbps(std::string_view text);

// A counter file: decimal uint64 with optional whitespace; "N/A (no PMA)", negatives, garbage
// and overflow are nullopt.
std::optional<uint64_t> parseCounter(std::string_view text);

// "0000:3b:00.0" looks like a PCI address (domain:bus:device.function).
bool isPciAddress(std::string_view text);

std::string_view trim(std::string_view text);

// Reads a whole small sysfs file. On failure returns nullopt and sets `error` (strerror text).
std::optional<std::string> readFile(const std::filesystem::path& path, std::string& error);

// readFile, trimmed; empty -> nullopt.
std::optional<std::string> readValue(const std::filesystem::path& path);

} // namespace nicd::sysfs
