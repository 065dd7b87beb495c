// What mlx5's counters mean to the daemon's rules (plugin ABI 1.5, IPlugin::describeLayout): the
// one place that names the mlx5 hw_counters and ethtool statistics the counter rules, the
// congestion verdict, FEC and the textfile's curated series read. Pure.
#pragma once

#include <nicd/plugin/plugin.h>

#include <string_view>
#include <vector>

namespace nicd::mlx5 {

// The meaning of the series `name` of `source` ("hw_counters", "ethtool"); None for the rest.
plugin::v1::SeriesMeaning counterMeaning(std::string_view source, std::string_view name);

// counterMeaning of each series of `layout`, in its order (IPlugin::describeLayout).
void describeCounters(const plugin::v1::SampleLayout& layout,
                      std::vector<plugin::v1::SeriesMeaning>& out);

} // namespace nicd::mlx5
