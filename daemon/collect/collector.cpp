#include "collect/collector.hpp"

#include "collect/deadline.hpp"
#include "collect/verbs_probe.hpp"
#include "inventory/netdev_state.hpp"
#include "log/log.hpp"
#include "loop/event_loop.hpp"
#include "plugins/plugin_manager.hpp"

#include <fmt/format.h>

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

// counters/ reads issue a firmware command per file: a wedged firmware blocks them. Each
// device's read runs against a deadline; a device whose read is still out is not read again
// (that would pile up blocked threads) and is reported unresponsive until the read returns.
void Collector::readPma(const Device& dev, DeviceSamples& ds)
{
    auto stuck = pma_stuck_.find(dev.ibdev);
    if (stuck != pma_stuck_.end()) {
        if (!stuck->second->load()) {
            ds.unresponsive =
                "a read of " + dev.sysfs_path + "/ports/*/counters has not returned yet";
            return;
        }
        pma_stuck_.erase(stuck);
        log::info({.device = dev.ibdev}, "{}: the driver answers counter reads again", dev.ibdev);
    }
    auto result = std::make_shared<DeviceSamples>();
    result->ibdev = dev.ibdev;
    auto finished = std::make_shared<std::atomic<bool>>(false);
    bool in_time = pma_runner_.run(
        [this, dev, result] {
            ib_reader_.read(dev, EventLoop::nowMonotonicUsec(), *result);
            result->pma_monotonic_usec = EventLoop::nowMonotonicUsec();
        },
        driver_timeout_, finished);
    if (in_time) {
        ds.samples = std::move(result->samples);
        ds.errors = std::move(result->errors);
        ds.pma_monotonic_usec = result->pma_monotonic_usec;
        return;
    }
    pma_stuck_[dev.ibdev] = finished;
    ds.unresponsive = fmt::format("reading {}/ports/*/counters did not return within {} ms",
                                  dev.sysfs_path, driver_timeout_.count());
    log::error({.device = dev.ibdev}, "{}: {}", dev.ibdev, ds.unresponsive);
}

// On the real root, with the PMA reads: the device must still open and answer port queries
// through rdma-core, within the driver deadline. A probe left behind is not repeated until it
// returns, and the device is unresponsive meanwhile.
void Collector::probeVerbs(const Device& dev, DeviceSamples& ds)
{
    if (!ds.unresponsive.empty())
        return;
    if (auto stuck = verbs_stuck_.find(dev.ibdev); stuck != verbs_stuck_.end()) {
        if (!stuck->second->load()) {
            ds.unresponsive =
                "a verbs probe of " + dev.ibdev + " (ibv_open_device) has not returned yet";
            return;
        }
        verbs_stuck_.erase(stuck);
    }
    auto result = std::make_shared<VerbsProbeResult>();
    auto finished = std::make_shared<std::atomic<bool>>(false);
    bool in_time =
        verbs_runner_.run([ibdev = dev.ibdev, result] { *result = probeVerbsDevice(ibdev); },
                          driver_timeout_, finished);
    if (!in_time) {
        verbs_stuck_[dev.ibdev] = finished;
        ds.unresponsive = fmt::format("the verbs probe of {} (ibv_open_device, ibv_query_port) did "
                                      "not return within {} ms",
                                      dev.ibdev, driver_timeout_.count());
        log::error({.device = dev.ibdev}, "{}", ds.unresponsive);
        return;
    }
    if (!result->error.empty()) {
        // sysfs may still read, but NCCL could not use the device.
        ds.unresponsive = result->error;
        log::error({.device = dev.ibdev}, "{}: verbs probe failed: {}", dev.ibdev, result->error);
    }
}

// Plugin calls are serialized: devices are polled one after the other, each against the
// deadline. A poll left behind blocks the plugin, so no plugin is called until it returns.
void Collector::pollPlugins(const Inventory& inventory, std::vector<DeviceSamples>& all)
{
    if (plugin_stuck_) {
        if (!plugin_stuck_->load()) {
            for (auto& ds : all)
                if (ds.ibdev == plugin_stuck_device_)
                    ds.unresponsive = "a plugin read of " + ds.ibdev + " has not returned yet";
            return;
        }
        log::info({.device = plugin_stuck_device_}, "{}: the plugin's read returned; polling again",
                  plugin_stuck_device_);
        plugin_stuck_.reset();
    }
    for (size_t i = 0; i < inventory.devices.size() && i < all.size(); ++i) {
        const Device& dev = inventory.devices[i];
        if (dev.plugin.empty())
            continue;
        auto result = std::make_shared<DeviceSamples>();
        auto finished = std::make_shared<std::atomic<bool>>(false);
        bool in_time = plugin_runner_.run([this, dev, result] { plugins_.poll(dev, *result); },
                                          driver_timeout_, finished);
        if (!in_time) {
            plugin_stuck_ = finished;
            plugin_stuck_device_ = dev.ibdev;
            all[i].unresponsive = fmt::format("plugin {} reading {} did not return within {} ms",
                                              dev.plugin, dev.ibdev, driver_timeout_.count());
            log::error({.device = dev.ibdev, .plugin = dev.plugin}, "{}", all[i].unresponsive);
            return;
        }
        auto& ds = all[i];
        ds.samples.insert(ds.samples.end(), std::make_move_iterator(result->samples.begin()),
                          std::make_move_iterator(result->samples.end()));
        ds.errors.insert(ds.errors.end(), result->errors.begin(), result->errors.end());
    }
}

bool Collector::callPlugin(const std::string& ibdev, std::function<void()> fn,
                           std::chrono::milliseconds timeout)
{
    if (pluginCallOutstanding())
        return false;
    auto finished = std::make_shared<std::atomic<bool>>(false);
    if (plugin_runner_.run(std::move(fn), timeout, finished))
        return true;
    plugin_stuck_ = finished;
    plugin_stuck_device_ = ibdev;
    return false;
}

Snapshot Collector::collect(bool read_pma)
{
    auto started = std::chrono::steady_clock::now();
    Snapshot snap;
    snap.inventory = inventory_.read();
    if (plugin_stuck_ && !plugin_stuck_->load()) {
        // A plugin call is still out: no other call into plugins until it returns.
        for (auto& dev : snap.inventory.devices)
            if (auto it = assignment_.find(dev.ibdev); it != assignment_.end())
                dev.plugin = it->second;
    } else {
        plugins_.assign(snap.inventory);
        assignment_.clear();
        for (const auto& dev : snap.inventory.devices)
            assignment_[dev.ibdev] = dev.plugin;
    }
    snap.netdevs = readNetdevStates(paths_, snap.inventory);

    std::map<std::string, PmaRead> pma_now;
    for (const auto& dev : snap.inventory.devices) {
        DeviceSamples ds;
        ds.ibdev = dev.ibdev;
        auto last = last_pma_.find(dev.ibdev);
        if (read_pma || last == last_pma_.end()) {
            readPma(dev, ds);
            if (paths_.root() == "/")
                probeVerbs(dev, ds);
            if (!ds.unresponsive.empty() && last != last_pma_.end()) {
                ds.samples = last->second.samples; // keep the last values published
                ds.pma_monotonic_usec = last->second.monotonic_usec;
            }
        } else {
            ds.samples = last->second.samples;
            ds.pma_monotonic_usec = last->second.monotonic_usec;
        }
        pma_now[dev.ibdev] = {ds.samples, ds.pma_monotonic_usec};
        snap.samples.push_back(std::move(ds));
    }
    last_pma_ = std::move(pma_now); // devices that disappeared drop out
    pollPlugins(snap.inventory, snap.samples);
    for (auto& ds : snap.samples) {
        ds.monotonic_usec = EventLoop::nowMonotonicUsec();
        read_errors_total_ += ds.errors.size();
    }

    snap.plugins = plugins_.statuses();
    snap.cycle = ++cycles_;
    snap.read_errors_total = read_errors_total_;
    snap.timestamp_seconds = realtimeSeconds();
    snap.duration_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return snap;
}

} // namespace nicd
