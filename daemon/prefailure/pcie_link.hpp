// How a PCI function's link trained (sysfs current_link_speed/width) against what it and the
// port above it can do (max_link_speed/width of both: a link trains no higher than the lower of
// the two ends). A function without these files (not PCIe, a VF on some kernels) has no link.
#pragma once

#include "model/prefailure_readings.hpp"

#include <filesystem>
#include <optional>
#include <string_view>

namespace nicd::prefailure {

// "16.0 GT/s PCIe" (Linux >= 5.7), "8 GT/s" (older), "2.5 GT/s" -> GT/s per lane; "Unknown",
// "Unknown speed" and anything else -> nullopt.
std::optional<double> parsePcieSpeed(std::string_view text);

// The link of the function at `function_dir` (a resolved /sys/devices/... path) and the
// capability of its parent bridge; nullopt when the function reports no link at all.
std::optional<PcieLink> readPcieLink(const std::filesystem::path& function_dir);

// True when the link runs below min(function max, upstream max) in speed or width. Unknown
// values never count as below.
bool trainedDown(const PcieLink& link);

} // namespace nicd::prefailure
