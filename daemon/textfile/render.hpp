// The whole textfile for one snapshot. Each group of families is rendered by its own function.
#pragma once

#include "model/snapshot.hpp"
#include "textfile/counter_budget.hpp"
#include "textfile/metric_writer.hpp"

#include <string>

namespace nicd::textfile {

// The whole text, handed to `sink` a chunk at a time (no copy of the whole file in memory).
// `budget`: the counter series written ([textfile] Counters=); by default every one. Below
// Counters=all, the other families leave out their details too (docs/metrics.md, "Series a port"):
// states that do not hold, healthy health reporters, every lane but the worst, thresholds.
void renderTextfileTo(const Snapshot& snap, const MetricWriter::Sink& sink,
                      const CounterBudget& budget = CounterBudget());

// `all`: every series of the family (Counters=all), else the default set.
void renderDaemonMetrics(const Snapshot& snap, bool all, MetricWriter& w);
void renderInventoryMetrics(const Snapshot& snap, bool all, MetricWriter& w);
void renderCounterMetrics(const Snapshot& snap, const CounterBudget& budget, MetricWriter& w);
void renderPluginMetrics(const Snapshot& snap, bool all, MetricWriter& w);
void renderHealthMetrics(const Snapshot& snap, MetricWriter& w);
void renderQosMetrics(const Snapshot& snap, bool all, MetricWriter& w);
void renderPrefailureMetrics(const Snapshot& snap, bool all, MetricWriter& w);
void renderCongestionMetrics(const Snapshot& snap, bool all, MetricWriter& w);
void renderReadinessMetrics(const Snapshot& snap, MetricWriter& w);

} // namespace nicd::textfile
