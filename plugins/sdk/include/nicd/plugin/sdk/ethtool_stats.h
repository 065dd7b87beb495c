// Netdev driver statistics (what `ethtool -S` shows): name and value, in the driver's order.
// The set is dynamic (PFC, channels, capabilities): callers key by name, never by index.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace nicd::plugin::sdk {

using Stats = std::vector<std::pair<std::string, uint64_t>>;

} // namespace nicd::plugin::sdk
