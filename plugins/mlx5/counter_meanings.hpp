// What mlx5's counters mean to the daemon's rules (plugin ABI 1.5, IPlugin::describeLayout): the
// one place that names the mlx5 hw_counters and ethtool statistics the counter rules, the
// congestion verdict, FEC and the textfile's curated series read. Pure.
#pragma once

#include <nicd/plugin/plugin.h>

#include <string_view>

namespace nicd::mlx5 {

// The meaning of the series `name` of `source` ("hw_counters", "ethtool"); None for the rest.
plugin::v1::SeriesMeaning counterMeaning(std::string_view source, std::string_view name);

// counterMeaning of the series `key` (the tables' MeaningOf: IPlugin::describeLayout).
plugin::v1::SeriesMeaning meaningOf(const plugin::v1::SeriesKey& key);

} // namespace nicd::mlx5
