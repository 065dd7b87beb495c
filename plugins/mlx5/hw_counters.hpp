// The mlx5 driver's per-port counters, ports/N/hw_counters/*.
#pragma once

#include <nicd/plugin/plugin.h>

#include <vector>

namespace nicd::mlx5 {

// Appends one Sample per readable file of every port; returns the first error (others are read).
// `lifespan` (the driver's cache lifetime in ms) is a gauge; everything else is a counter.
::nicd::plugin::v1::Status readHwCounters(const ::nicd::plugin::v1::DeviceRef& dev,
                                          std::vector<::nicd::plugin::v1::Sample>& out);

} // namespace nicd::mlx5
