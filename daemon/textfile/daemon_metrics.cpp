// nicd's own liveness: an alert on nicd_last_cycle_timestamp_seconds (or node_exporter's
// node_textfile_mtime_seconds) catches a dead writer.
#include "textfile/render.hpp"

namespace nicd::textfile {

void renderDaemonMetrics(const Snapshot& snap, bool all, MetricWriter& w)
{
    w.family("nicd_up", MetricType::Gauge, "1 when nicd wrote this file after a complete cycle.");
    w.sample(1.0);
    w.family("nicd_last_cycle_timestamp_seconds", MetricType::Gauge,
             "Unix time at which the last collection cycle finished.");
    w.sample(snap.timestamp_seconds);
    w.family("nicd_cycle_duration_seconds", MetricType::Gauge,
             "Wall time the last collection cycle took.");
    w.sample(snap.duration_seconds);
    w.family("nicd_cycles_total", MetricType::Counter, "Collection cycles since nicd started.");
    w.sample({}, snap.cycle);
    w.family("nicd_read_errors_total", MetricType::Counter,
             "Failed sysfs, ethtool or plugin reads since nicd started.");
    w.sample({}, snap.read_errors_total);
    w.family("nicd_dropped_files", MetricType::Gauge,
             "Counter files of the device nicd no longer reads: refused DropCounterAfter reads "
             "in a row (EINVAL, EOPNOTSUPP, EACCES); read again after a reload or a reboot. "
             "Devices that dropped none are left out unless Counters=all.");
    for (const auto& ds : snap.samples)
        if (all || ds.files_dropped > 0)
            w.sample({{"device", ds.ibdev}}, uint64_t{ds.files_dropped});
}

} // namespace nicd::textfile
