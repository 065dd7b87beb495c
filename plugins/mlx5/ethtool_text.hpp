// `ethtool -S` text, as the simulator writes it and as fixtures record it.
#pragma once

#include "ethtool_stats.hpp"

#include <string_view>

namespace nicd::mlx5 {

// Pure: "NIC statistics:" then "     name: value" lines. Lines that are not "name: unsigned
// number" (the header, blank lines, garbage) are skipped; names are trimmed.
Stats parseEthtoolText(std::string_view text);

} // namespace nicd::mlx5
