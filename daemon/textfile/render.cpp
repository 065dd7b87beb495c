#include "textfile/render.hpp"

namespace nicd {

std::string renderTextfile(const Snapshot& snap)
{
    MetricWriter w;
    renderDaemonMetrics(snap, w);
    renderInventoryMetrics(snap, w);
    renderHealthMetrics(snap, w);
    renderCounterMetrics(snap, w);
    renderPluginMetrics(snap, w);
    return w.text();
}

} // namespace nicd
