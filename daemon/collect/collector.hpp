// One collection cycle: discover the inventory, hand devices to plugins, read link state and
// counters. Runs on the worker thread; the result goes to the loop as a Snapshot.
#pragma once

#include "collect/deadline.hpp"
#include "collect/ib_counters.hpp"
#include "collect/plugin_calls.hpp"
#include "collect/source.hpp"
#include "collect/statistics_filter.hpp"
#include "collect/verbs_lane.hpp"
#include "config/config.hpp"
#include "config/host_paths.hpp"
#include "inventory/inventory_reader.hpp"
#include "model/snapshot.hpp"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace nicd::collect {

class Collector {
public:
    // Reads with the settings of `config` (configure()).
    Collector(HostPaths paths, PluginCalls& plugins, const Config& config);

    // `read_pma`: also read ports/N/counters (slow: one firmware command per file). Between
    // PMA reads the last values are carried over so every snapshot has every counter. Of the
    // plugins' statistics, only what a cycle uses is kept (collect/statistics_filter.hpp), but
    // every one of the devices in `whole`.
    Snapshot collect(bool read_pma, const std::set<std::string>& whole = {});
    // A source read every cycle (or on its own interval) after the inventory: collect/source.hpp.
    void add(std::unique_ptr<Source> source);
    // The next cycle re-walks the whole sysfs tree (after link or device events, or a reload),
    // and the sources look up again what they keep by name.
    void rediscover()
    {
        inventory_.invalidate();
        for (auto& slot : sources_)
            slot.source->rediscover();
    }
    // At start and on reload: [health] DriverTimeoutMs= (how long one device's driver reads may
    // take before it counts as unresponsive), [daemon] IgnoreDevices= and DropCounterAfter=: the
    // next cycle leaves the ignored devices out of everything (every reader reads only what the
    // inventory lists; the slow sources read again at once when the list changed, so that what
    // they last said of a newly ignored device goes too) and reads the dropped counters/ files
    // again.
    void configure(const Config& config);
    // True while a plugin call left behind by a deadline has not returned: no other plugin call
    // (a QoS round included) may start.
    bool pluginCallOutstanding() const { return plugin_stuck_ && !plugin_stuck_->load(); }
    // Runs another plugin call for `ibdev` (a QoS verify or apply) on the same lane as the polls,
    // against `timeout`. False when it did not return in time: the call is left behind and the
    // plugin gets no other call until it returns, as after a poll past its deadline. `fn` must
    // own everything it touches.
    bool callPlugin(const std::string& ibdev, std::function<void()> fn,
                    std::chrono::milliseconds timeout);

private:
    // Reads counters/ of the `due` devices; true for each device whose values are fresh.
    std::vector<bool> readPma(const Inventory& inventory, const std::vector<size_t>& due,
                              std::vector<DeviceSamples>& all);
    void pollPlugins(const Inventory& inventory, std::vector<DeviceSamples>& all,
                     const std::set<std::string>& whole);
    void readSources(Snapshot& snap);
    // Whether the device names of `inv` differ from the last call's.
    bool devicesChanged(const Inventory& inv);
    void countPluginDrops(std::vector<DeviceSamples>& all);

    HostPaths paths_;
    PluginCalls& plugins_;
    inventory::InventoryReader inventory_;
    IbCounterReader ib_reader_;
    struct PmaRead {
        SampleBatch batch; // its layout is shared: a copy is the values
        uint64_t monotonic_usec = 0;
        uint32_t files_dropped = 0;
    };
    struct DropsAt { // where a plugin layout has its dropped-files gauge
        std::shared_ptr<const SampleLayout> layout;
        std::optional<size_t> index;
    };
    std::map<std::string, DropsAt> plugin_drops_at_; // by ibdev
    std::map<std::string, PmaRead> last_pma_;        // by ibdev
    uint64_t cycles_ = 0;
    std::chrono::milliseconds driver_timeout_{2000};
    DeadlineRunner pma_runner_;    // counters/ reads
    DeadlineRunner plugin_runner_; // plugin polls (serialized)
    std::shared_ptr<StatisticsFilter> filter_ = std::make_shared<StatisticsFilter>();
    VerbsLane verbs_; // verbs probes (real root only)
    std::map<std::string, std::shared_ptr<std::atomic<bool>>>
        pma_stuck_;                                   // ibdev -> read returned yet?
    std::shared_ptr<std::atomic<bool>> plugin_stuck_; // a plugin call left behind
    std::string plugin_stuck_device_;
    struct Assignment {
        std::string plugin;
        std::string claimed_by;
        bool lag = false; // the plugin said it is a RoCE LAG
    };
    std::map<std::string, Assignment> assignment_; // by ibdev, from the last assign()
    uint64_t read_errors_total_ = 0;
    struct SourceSlot {
        std::unique_ptr<Source> source;
        uint64_t last_read_usec = 0;
        bool disabled = false;
    };
    std::vector<SourceSlot> sources_;
    std::vector<std::string> source_devices_; // the device names the sources last read
};

} // namespace nicd::collect
