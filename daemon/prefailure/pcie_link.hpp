// How a PCI function's link trained (sysfs current_link_speed/width) against what it and the
// port above it can do (max_link_speed/width of both: a link trains no higher than the lower of
// the two ends), and the same of every link above it up to its root port. A function without
// these files (not PCIe, a VF on some kernels) has no link.
#pragma once

#include "model/prefailure_readings.hpp"

#include <filesystem>
#include <optional>
#include <string_view>
#include <vector>

namespace nicd::prefailure {

// "16.0 GT/s PCIe" (Linux >= 5.7), "8 GT/s" (older), "2.5 GT/s" -> GT/s per lane; "Unknown",
// "Unknown speed" and anything else -> nullopt.
std::optional<double> parsePcieSpeed(std::string_view text);

// The link of the function at `function_dir` (a resolved /sys/devices/... path), the
// capability of its parent bridge and the links above it (readPciePath); nullopt when the
// function reports no link at all.
std::optional<PcieLink> readPcieLink(const std::filesystem::path& function_dir);

// The links between the function's root port and the switches below it, nearest the function
// first: each switch's upstream port as it reports its link, against the port above it. Empty
// without a switch, or when the bridges above do not alternate link and switch as PCIe's do.
std::vector<PcieHop> readPciePath(const std::filesystem::path& function_dir);

// True when the link runs below min(function max, upstream max) in speed or width. Unknown
// values never count as below.
bool trainedDown(const PcieLink& link);

} // namespace nicd::prefailure
