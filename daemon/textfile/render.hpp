// The whole textfile for one snapshot. Each group of families is rendered by its own function.
#pragma once

#include "model/snapshot.hpp"
#include "textfile/counter_budget.hpp"
#include "textfile/metric_writer.hpp"

#include <string>

namespace nicd::textfile {

// The whole text, handed to `sink` a chunk at a time (no copy of the whole file in memory).
// `budget`: the counter series written ([textfile] Counters=); by default every one.
void renderTextfileTo(const Snapshot& snap, const MetricWriter::Sink& sink,
                      const CounterBudget& budget = CounterBudget());

void renderDaemonMetrics(const Snapshot& snap, MetricWriter& w);
void renderInventoryMetrics(const Snapshot& snap, MetricWriter& w);
void renderCounterMetrics(const Snapshot& snap, const CounterBudget& budget, MetricWriter& w);
void renderPluginMetrics(const Snapshot& snap, MetricWriter& w);
void renderHealthMetrics(const Snapshot& snap, MetricWriter& w);
void renderQosMetrics(const Snapshot& snap, MetricWriter& w);
void renderPrefailureMetrics(const Snapshot& snap, MetricWriter& w);
void renderCongestionMetrics(const Snapshot& snap, MetricWriter& w);
void renderReadinessMetrics(const Snapshot& snap, MetricWriter& w);

} // namespace nicd::textfile
