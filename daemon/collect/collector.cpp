#include "collect/collector.hpp"

#include "inventory/netdev_state.hpp"
#include "loop/event_loop.hpp"
#include "plugins/plugin_manager.hpp"

#include <chrono>
#include <ctime>

namespace nicd {

namespace {
double realtimeSeconds()
{
    timespec ts{};
    clock_gettime(CLOCK_REALTIME, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}
} // namespace

Collector::Collector(HostPaths paths, PluginManager& plugins)
    : paths_(paths), plugins_(plugins), inventory_(std::move(paths))
{
}

Snapshot Collector::collect(bool read_pma)
{
    auto started = std::chrono::steady_clock::now();
    Snapshot snap;
    snap.inventory = inventory_.read();
    plugins_.assign(snap.inventory);
    snap.netdevs = readNetdevStates(paths_, snap.inventory);

    std::map<std::string, PmaRead> pma_now;
    for (const auto& dev : snap.inventory.devices) {
        DeviceSamples ds;
        ds.ibdev = dev.ibdev;
        auto last = last_pma_.find(dev.ibdev);
        if (read_pma || last == last_pma_.end()) {
            ib_reader_.read(dev, EventLoop::nowMonotonicUsec(), ds);
            ds.pma_monotonic_usec = EventLoop::nowMonotonicUsec();
        } else {
            ds.samples = last->second.samples;
            ds.pma_monotonic_usec = last->second.monotonic_usec;
        }
        pma_now[dev.ibdev] = {ds.samples, ds.pma_monotonic_usec};
        if (!dev.plugin.empty())
            plugins_.poll(dev, ds);
        ds.monotonic_usec = EventLoop::nowMonotonicUsec();
        read_errors_total_ += ds.errors.size();
        snap.samples.push_back(std::move(ds));
    }
    last_pma_ = std::move(pma_now); // devices that disappeared drop out

    snap.plugins = plugins_.statuses();
    snap.cycle = ++cycles_;
    snap.read_errors_total = read_errors_total_;
    snap.timestamp_seconds = realtimeSeconds();
    snap.duration_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return snap;
}

} // namespace nicd
