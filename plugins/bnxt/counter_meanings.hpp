// What bnxt's counters mean to the daemon's rules (IPlugin::describeLayout, ABI 1.5): the one
// table of bnxt_re's hw_counters, under both name sets (before and after the ~6.18 rename,
// ef56081d1864 "RDMA/bnxt_re: RoCE related hardware counters update"), and of bnxt_en's ethtool
// statistics; which hw_counters are levels, not counts (isGauge). Pure.
#pragma once

#include <nicd/plugin/plugin.h>

#include <string_view>

namespace nicd::bnxt {

// The meaning of one series bnxt's reads give (source "hw_counters" or "ethtool"); None for any
// other source or a name the table does not know.
::nicd::plugin::v1::SeriesMeaning meaningOf(const ::nicd::plugin::v1::SeriesKey& key);
// True for the hw_counters that are a level (active_qps), a high-water mark (watermark_qps) or a
// register's value (db_fifo_register), read as SampleKind::Gauge: kernels before ~6.18 list them
// among the counters (7fcf00bd "RDMA/bnxt_re: Remove non-statistics counters from hw_counters").
bool isGauge(std::string_view hw_counter);

} // namespace nicd::bnxt
