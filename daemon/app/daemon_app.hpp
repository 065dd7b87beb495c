// The daemon's wiring: what starts, in which order, and what is connected to what. Each stage it
// drives lives in its own folder:
//   collect/cycle_scheduler     when a collection cycle runs (collect/collector: what it reads)
//   health/health_engine        the judgement of each snapshot
//   provision/provision_scheduler  when QoS rounds run
//   journal/kernel_watch        kernel driver errors from the journal
//   netlink/live_links          link events between cycles
//   state/state_keeper          memory across restarts
//   textfile/, dbus/            the sinks
// `--once` runs one cycle of the same stages without a loop.
#pragma once

#include "app/config_files.hpp"
#include "app/options.hpp"
#include "config/config.hpp"
#include "config/host_paths.hpp"
#include "kernel_log/kernel_watch.hpp"
#include "loop/event_loop.hpp"
#include "loop/pacer.hpp"
#include "model/snapshot.hpp"
#include "netlink/live_links.hpp"
#include "textfile/counter_budget.hpp"
#include "textfile/write_failures.hpp"
#include "textfile/write_pace.hpp"

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace nicd {

class Collector;
class CycleScheduler;
class PluginManager;
class StateKeeper;
class Worker;
namespace netlink {
class LinkMonitor;
class DcbMonitor;
class DevlinkEvents;
} // namespace netlink
namespace health {
class HealthEngine;
struct KnownDevice;
} // namespace health
namespace dbus {
class BusService;
struct BusHandlers;
} // namespace dbus
namespace provision {
class ProvisionScheduler;
}

class DaemonApp {
public:
    DaemonApp(Options options, ConfigFiles files, Config config);
    ~DaemonApp();
    DaemonApp(const DaemonApp&) = delete;
    DaemonApp& operator=(const DaemonApp&) = delete;

    int runDaemon(); // until SIGTERM/SIGINT; returns the exit code
    int runOnce();   // one full cycle, a report on stdout; 0 when the textfile was written

private:
    void loadPlugins();
    void startBus();
    void startLinkEvents();
    dbus::BusHandlers busHandlers();
    void finishCycle(Snapshot snap);
    void judge(Snapshot& snap);
    void publish(const Snapshot& snap); // textfile and D-Bus
    // The last snapshot published again after something between cycles changed it, paced
    // (loop/pacer.hpp): at once unless a burst of such publishes just went out.
    void publishSoon();
    bool writeTextfile(const Snapshot& snap);
    void saveState(bool force = false);
    uint32_t clearCondition(const std::string& device, const std::string& code);
    // Remembered NICs absent now forgotten by an operator: `device` (a name or PCI address), or
    // with `device` empty every one. Returns those forgotten.
    std::vector<health::KnownDevice> forgetDevices(const std::string& device);
    void onLinkEvent(const netlink::LinkEvent& ev);
    void addSignalSources();
    void startDevlinkEvents();
    void onReporterEvent(std::vector<HealthReporter> reporters, bool overrun);
    // A copy of the last snapshot without its samples, judged and published (an event between
    // cycles: counters are judged on fresh reads only).
    void rejudgeLast();
    void maybeReady();
    void reload();

    Options options_;
    ConfigFiles files_;
    Config config_;
    const Config startup_config_; // what plugins were loaded with; never changes (worker reads it)
    HostPaths paths_;
    std::unique_ptr<PluginManager> plugins_;       // used on the worker thread only
    std::unique_ptr<Collector> collector_;         // used on the worker thread only
    std::unique_ptr<health::HealthEngine> health_; // loop thread
    std::unique_ptr<StateKeeper> state_;
    std::unique_ptr<KernelWatch> kernel_;
    std::optional<Snapshot> last_; // the last published snapshot
    std::unique_ptr<provision::ProvisionScheduler> provision_;
    std::unique_ptr<EventLoop> loop_;
    std::unique_ptr<dbus::BusService> bus_; // loop thread; destroyed before the loop
    std::unique_ptr<Worker> worker_;
    std::unique_ptr<CycleScheduler> cycles_;
    std::unique_ptr<netlink::LinkMonitor> links_;
    std::unique_ptr<netlink::DcbMonitor> dcb_events_;
    std::unique_ptr<netlink::DevlinkEvents> devlink_events_;
    std::shared_ptr<std::atomic<bool>> read_reporters_soon_; // ReporterSource's flag
    std::shared_ptr<std::atomic<bool>> read_readiness_soon_; // ReadinessSource's flag
    netlink::LiveLinks live_links_;
    std::vector<KernelWatch::Findings> pending_kernel_; // found before the first snapshot
    bool ready_sent_ = false;
    Pacer publish_pacer_{4, 250'000};           // publishes between cycles: 4 at once, then 4/s
    EventLoop::Alarm* publish_alarm_ = nullptr; // a paced publish waiting for its token
    bool publish_pending_ = false;
    WriteFailures textfile_failures_{"textfile"};
    TextfilePace textfile_pace_;      // [textfile] IntervalMs=
    CounterBudget textfile_counters_; // [textfile] Counters=, with each device's PfcPriorities=
};

} // namespace nicd
