#include "textfile/render.hpp"

#include "log/log.hpp"

namespace nicd::textfile {

namespace {

void renderAll(const Snapshot& snap, const CounterBudget& budget, MetricWriter& w)
{
    const bool all = budget.everything();
    renderDaemonMetrics(snap, all, w);
    renderInventoryMetrics(snap, all, w);
    renderHealthMetrics(snap, w);
    renderQosMetrics(snap, all, w);
    renderPrefailureMetrics(snap, all, w);
    renderCongestionMetrics(snap, all, w);
    renderReadinessMetrics(snap, w);
    renderCounterMetrics(snap, budget, w);
    renderPluginMetrics(snap, all, w);
    if (w.duplicatesDropped() > 0) {
        static bool warned = false; // once: the same snapshot shape repeats every cycle
        if (!warned)
            log::warn({}, "textfile: {} repeated series dropped (a bug: please report)",
                      w.duplicatesDropped());
        warned = true;
    }
}

} // namespace

void renderTextfileTo(const Snapshot& snap, const MetricWriter::Sink& sink,
                      const CounterBudget& budget)
{
    MetricWriter w;
    w.streamTo(sink, size_t{64} * 1024);
    renderAll(snap, budget, w);
    w.flush();
}

} // namespace nicd::textfile
