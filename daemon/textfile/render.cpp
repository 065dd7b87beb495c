#include "textfile/render.hpp"

#include "log/log.hpp"

namespace nicd {

namespace {

void renderAll(const Snapshot& snap, const CounterBudget& budget, MetricWriter& w)
{
    renderDaemonMetrics(snap, w);
    renderInventoryMetrics(snap, w);
    renderHealthMetrics(snap, w);
    renderQosMetrics(snap, w);
    renderSignalMetrics(snap, w);
    renderCongestionMetrics(snap, w);
    renderReadinessMetrics(snap, w);
    renderCounterMetrics(snap, budget, w);
    renderPluginMetrics(snap, w);
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

std::string renderTextfile(const Snapshot& snap, const CounterBudget& budget)
{
    // Reserving what the last render needed avoids the doubling reallocations of a ~500 KB text
    // (64 devices), which would otherwise set the daemon's peak memory.
    static thread_local size_t last_size = 0;
    MetricWriter w;
    size_t samples = 0;
    for (const auto& ds : snap.samples)
        samples += ds.size();
    size_t estimate = 100 * samples + 1500 * snap.inventory.devices.size() + 4096; // first render
    w.reserve(last_size > 0 ? last_size + last_size / 8 + 4096 : estimate);
    renderAll(snap, budget, w);
    last_size = w.text().size();
    return w.take();
}

} // namespace nicd
