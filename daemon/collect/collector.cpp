#include "collect/collector.hpp"

#include "collect/deadline.hpp"
#include "log/log.hpp"
#include "loop/clock.hpp"
#include "loop/event_loop.hpp"

#include <nicd/plugin/sdk/backoff.h>

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <string_view>
#include <utility>

namespace nicd::collect {

namespace {

// What a lane touches it owns: a call left behind may outlive the cycle.
std::shared_ptr<std::vector<Device>> ownedCopies(const Inventory& inventory,
                                                 const std::vector<size_t>& indices)
{
    auto devices = std::make_shared<std::vector<Device>>();
    devices->reserve(indices.size());
    for (size_t i : indices)
        devices->push_back(inventory.devices[i]);
    return devices;
}
} // namespace

Collector::Collector(HostPaths paths, PluginCalls& plugins, const Config& config)
    : paths_(std::move(paths)), plugins_(plugins), inventory_(paths_)
{
    configure(config);
}

void Collector::add(std::unique_ptr<Source> source)
{
    sources_.push_back({std::move(source)});
}

bool Collector::devicesChanged(const Inventory& inv)
{
    if (std::equal(inv.devices.begin(), inv.devices.end(), source_devices_.begin(),
                   source_devices_.end(),
                   [](const Device& d, const std::string& name) { return d.ibdev == name; }))
        return false;
    source_devices_.clear();
    for (const auto& d : inv.devices)
        source_devices_.push_back(d.ibdev);
    return true;
}

void Collector::configure(const Config& config)
{
    driver_timeout_ = std::chrono::milliseconds(config.health.driver_timeout_ms);
    if (inventory_.setIgnore(inventory::IgnoreList(config.daemon.ignore_devices)))
        for (auto& slot : sources_)
            slot.last_read_usec = 0; // due at the next cycle
    ib_reader_.setDropAfter(config.daemon.drop_counter_after);
    filter_->configure(config.textfile.counters);
}

void Collector::readSources(Snapshot& snap)
{
    const uint64_t now = loop::EventLoop::nowMonotonicUsec();
    const bool devices_changed = devicesChanged(snap.inventory);
    for (auto& slot : sources_) {
        if (slot.disabled)
            continue;
        auto interval = uint64_t(
            std::chrono::duration_cast<std::chrono::microseconds>(slot.source->interval()).count());
        try {
            if ((devices_changed && slot.source->keyedByDevice()) || slot.last_read_usec == 0 ||
                now - slot.last_read_usec >= interval) {
                slot.last_read_usec = now;
                slot.source->read(snap.inventory);
            }
            slot.source->fill(snap);
        } catch (const std::exception& e) {
            slot.disabled = true;
            log::error({}, "source '{}' failed and is disabled until nicd restarts: {}",
                       slot.source->name(), e.what());
        }
    }
}

// counters/ reads issue a firmware command per file: a wedged firmware blocks them. The due
// devices are read one after the other on the PMA lane, each against the deadline (one hand-off
// for all of them). A device whose read is still out is not read again (that would pile up
// blocked threads) and is reported unresponsive until the read returns; the devices after it are
// read on a fresh lane, so one slow device costs the others one deadline, not their counters.
std::vector<bool> Collector::readPma(const Inventory& inventory, const std::vector<size_t>& due,
                                     std::vector<DeviceSamples>& all)
{
    std::vector<bool> fresh(all.size(), false);
    std::vector<size_t> to_read;
    for (size_t i : due) {
        const Device& dev = inventory.devices[i];
        auto stuck = pma_stuck_.find(dev.ibdev);
        if (stuck != pma_stuck_.end()) {
            if (!stuck->second->load()) {
                all[i].unresponsive =
                    "a read of " + dev.sysfs_path + "/ports/*/counters has not returned yet";
                continue;
            }
            pma_stuck_.erase(stuck);
            log::info({.device = dev.ibdev}, "{}: the driver answers counter reads again",
                      dev.ibdev);
        }
        to_read.push_back(i);
    }
    auto devices = ownedCopies(inventory, to_read);
    auto results = std::make_shared<std::vector<DeviceSamples>>(to_read.size());
    for (size_t start = 0; start < to_read.size();) {
        auto finished = std::make_shared<std::atomic<bool>>(false);
        size_t read = pma_runner_.runEach(
            to_read.size() - start,
            [this, devices, results, start](size_t k) {
                auto& r = (*results)[start + k];
                try {
                    ib_reader_.read((*devices)[start + k], loop::EventLoop::nowMonotonicUsec(), r);
                    r.pma_monotonic_usec = loop::EventLoop::nowMonotonicUsec();
                } catch (const std::exception& e) {
                    r.pma = {}; // pma_monotonic_usec stays 0: not fresh
                    r.errors.push_back({(*devices)[start + k].ibdev, 0,
                                        (*devices)[start + k].sysfs_path + "/ports/*/counters",
                                        e.what()});
                }
            },
            driver_timeout_, finished);
        for (size_t k = start; k < start + read; ++k) {
            auto& ds = all[to_read[k]];
            auto& r = (*results)[k];
            ds.pma = std::move(r.pma);
            ds.errors = std::move(r.errors);
            ds.pma_monotonic_usec = r.pma_monotonic_usec;
            ds.files_dropped = r.files_dropped;
            fresh[to_read[k]] = r.pma_monotonic_usec != 0;
        }
        if (start + read == to_read.size())
            break;
        size_t stuck = start + read;
        const Device& dev = (*devices)[stuck];
        pma_stuck_[dev.ibdev] = finished;
        auto& ds = all[to_read[stuck]];
        ds.unresponsive = fmt::format("reading {}/ports/*/counters did not return within {} ms",
                                      dev.sysfs_path, driver_timeout_.count());
        log::error({.device = dev.ibdev}, "{}: {}", dev.ibdev, ds.unresponsive);
        start = stuck + 1;
    }
    return fresh;
}

// Plugin calls are serialized: devices are polled one after the other on the plugin lane, each
// against the deadline. A poll left behind blocks the plugin, so no plugin is called until it
// returns (the devices after it are not polled meanwhile).
void Collector::pollPlugins(const Inventory& inventory, std::vector<DeviceSamples>& all,
                            const std::set<std::string>& whole)
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
    std::vector<size_t> claimed;
    for (size_t i = 0; i < inventory.devices.size() && i < all.size(); ++i)
        if (!inventory.devices[i].plugin.empty())
            claimed.push_back(i);
    auto devices = ownedCopies(inventory, claimed);
    auto results = std::make_shared<std::vector<DeviceSamples>>(claimed.size());
    auto finished = std::make_shared<std::atomic<bool>>(false);
    // Filtered as each device's read returns: one device's whole read is held at a time.
    auto wanted = std::make_shared<std::vector<bool>>();
    for (const auto& d : *devices)
        wanted->push_back(whole.contains(d.ibdev));
    size_t polled = plugin_runner_.runEach(
        claimed.size(),
        [this, devices, results, wanted, filter = filter_](size_t k) {
            try {
                plugins_.poll((*devices)[k], (*results)[k]);
                filter->apply((*results)[k], (*wanted)[k]);
            } catch (const std::exception& e) {
                (*results)[k].errors.push_back(
                    {(*devices)[k].ibdev, 0, "plugin " + (*devices)[k].plugin, e.what()});
            }
        },
        driver_timeout_, finished);
    for (size_t k = 0; k < polled; ++k) {
        auto& ds = all[claimed[k]];
        auto& r = (*results)[k];
        ds.plugin = std::move(r.plugin);
        ds.meanings = std::move(r.meanings);
        ds.all_statistics = r.all_statistics;
        ds.errors.insert(ds.errors.end(), r.errors.begin(), r.errors.end());
        r = DeviceSamples{}; // freed as it goes: the peak stays one copy of the cycle's samples
    }
    if (polled == claimed.size())
        return;
    const Device& dev = (*devices)[polled];
    plugin_stuck_ = finished;
    plugin_stuck_device_ = dev.ibdev;
    auto& ds = all[claimed[polled]];
    ds.unresponsive = fmt::format("plugin {} reading {} did not return within {} ms", dev.plugin,
                                  dev.ibdev, driver_timeout_.count());
    log::error({.device = dev.ibdev, .plugin = dev.plugin}, "{}", ds.unresponsive);
}

// What each device's plugin said it dropped (a kSourceNicd gauge), added to the daemon's own;
// where it is in a layout is found once per layout (nothing is allocated while layouts stay).
void Collector::countPluginDrops(std::vector<DeviceSamples>& all)
{
    static_assert(std::string_view(kSourceNicd) == plugin::sdk::kDaemonSource);
    for (auto& ds : all) {
        const SampleBatch& b = ds.plugin;
        if (!b.layout)
            continue;
        auto& at = plugin_drops_at_[ds.ibdev];
        if (at.layout != b.layout) {
            at.layout = b.layout;
            at.index.reset();
            const auto& series = b.layout->series;
            for (size_t i = 0; i < series.size() && !at.index; ++i)
                if (series[i].source == kSourceNicd &&
                    series[i].name == plugin::sdk::kFilesDroppedName)
                    at.index = i;
        }
        if (at.index && *at.index < b.values.size())
            ds.files_dropped += static_cast<uint32_t>(b.values[*at.index]);
    }
    if (plugin_drops_at_.size() > all.size()) // devices went away
        std::erase_if(plugin_drops_at_, [&](const auto& kv) {
            return std::none_of(all.begin(), all.end(),
                                [&](const DeviceSamples& ds) { return ds.ibdev == kv.first; });
        });
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

Snapshot Collector::collect(bool read_pma, const std::set<std::string>& whole)
{
    auto started = std::chrono::steady_clock::now();
    Snapshot snap;
    snap.inventory = inventory_.read();
    if (plugin_stuck_ && !plugin_stuck_->load()) {
        // A plugin call is still out: no other call into plugins until it returns.
        for (auto& dev : snap.inventory.devices)
            if (auto it = assignment_.find(dev.ibdev); it != assignment_.end()) {
                dev.plugin = it->second.plugin;
                dev.claimed_by = it->second.claimed_by;
                if (it->second.lag)
                    dev.function = DeviceFunction::Lag;
            }
    } else {
        plugins_.assign(snap.inventory);
        assignment_.clear();
        for (const auto& dev : snap.inventory.devices)
            assignment_[dev.ibdev] = {dev.plugin, dev.claimed_by,
                                      dev.function == DeviceFunction::Lag};
    }
    snap.reporter_meanings = plugins_.reporterMeanings();
    readSources(snap);

    ib_reader_.retain(snap.inventory);
    std::vector<size_t> due;
    snap.samples.resize(snap.inventory.devices.size());
    for (size_t i = 0; i < snap.inventory.devices.size(); ++i) {
        const auto& dev = snap.inventory.devices[i];
        snap.samples[i].ibdev = dev.ibdev;
        if (read_pma || !last_pma_.contains(dev.ibdev))
            due.push_back(i);
    }
    auto fresh = readPma(snap.inventory, due, snap.samples);
    std::map<std::string, PmaRead> pma_now;
    for (size_t i = 0; i < snap.inventory.devices.size(); ++i) {
        const auto& dev = snap.inventory.devices[i];
        auto& ds = snap.samples[i];
        // Between PMA reads a device whose read is still out stays unresponsive (else its
        // condition would clear and come back every PMA interval).
        if (auto stuck = pma_stuck_.find(dev.ibdev);
            ds.unresponsive.empty() && stuck != pma_stuck_.end() && !stuck->second->load())
            ds.unresponsive =
                "a read of " + dev.sysfs_path + "/ports/*/counters has not returned yet";
        // On the real root, with the PMA reads, the device must still open and answer port
        // queries through rdma-core, within the driver deadline.
        if (paths_.root() == "/" && ds.unresponsive.empty())
            ds.unresponsive =
                fresh[i] ? verbs_.check(dev.ibdev, driver_timeout_) : verbs_.lastProblem(dev.ibdev);
        auto last = last_pma_.find(dev.ibdev);
        if (!(fresh[i] && ds.unresponsive.empty()) && last != last_pma_.end()) {
            ds.pma = last->second.batch; // keep the last values published
            ds.pma_monotonic_usec = last->second.monotonic_usec;
            ds.files_dropped = last->second.files_dropped;
        }
        if (!ds.pma.empty() || ds.pma_monotonic_usec != 0 || ds.files_dropped != 0)
            pma_now[dev.ibdev] = {ds.pma, ds.pma_monotonic_usec, ds.files_dropped};
    }
    last_pma_ = std::move(pma_now); // devices that disappeared drop out
    // The InfiniBand MTU is not in sysfs: the readiness checks take it from the verbs probe.
    if (paths_.root() == "/")
        for (auto& [key, port] : snap.readiness.ports)
            if (const auto* mtus = verbs_.activeMtus(key.first);
                mtus && key.second >= 1 && key.second <= mtus->size() && (*mtus)[key.second - 1])
                port.ib_active_mtu = (*mtus)[key.second - 1];
    pollPlugins(snap.inventory, snap.samples, whole);
    countPluginDrops(snap.samples);
    for (auto& ds : snap.samples) {
        ds.monotonic_usec = loop::EventLoop::nowMonotonicUsec();
        read_errors_total_ += ds.errors.size();
    }

    snap.plugins = plugins_.statuses();
    snap.cycle = ++cycles_;
    snap.read_errors_total = read_errors_total_;
    snap.timestamp_seconds = loop::realtimeSeconds();
    snap.duration_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return snap;
}

} // namespace nicd::collect
