// The daemon's wiring: what starts, in which order, and what is connected to what. Each stage it
// drives lives in its own folder, and the data flows through them in this order:
//   collect/cycle_scheduler     when a collection cycle runs (collect/collector: what it reads)
//   kernel_log/kernel_watch     kernel driver errors from the journal
//   netlink/                    link, DCB and devlink health events between cycles
//   health/health_engine        the judgement of each snapshot
//   provision/provision_scheduler  when QoS rounds run; it hands back their QoS summary
//   loop/published_snapshot     the last published snapshot: the one place it changes
//   textfile/textfile_sink, dbus/  the sinks; report/summary the STATUS= line and --once report
//   state/state_keeper          memory across restarts
// Configuration reaches every consumer one way: each is made with the configuration and has one
// configure(const Config&), which reload() calls on each in turn. `--once` runs one cycle of the
// same stages without a loop.
#pragma once

#include "app/counter_requests.hpp"
#include "app/options.hpp"
#include "app/run_lock.hpp"
#include "config/config.hpp"
#include "config/config_files.hpp"
#include "config/host_paths.hpp"
#include "dbus/bus_views.hpp"
#include "kernel_log/kernel_watch.hpp"
#include "loop/event_loop.hpp"
#include "loop/published_snapshot.hpp"
#include "model/snapshot.hpp"
#include "netlink/live_links.hpp"

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace nicd {
namespace collect {
class Collector;
class CycleScheduler;
} // namespace collect
namespace plugins {
class PluginManager;
}
namespace state {
class StateKeeper;
}
namespace textfile {
class TextfileSink;
}
namespace loop {
class Worker;
}
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
} // namespace nicd

namespace nicd::app {

class DaemonApp {
public:
    // `lock`: the root's (app/run_lock.hpp), held as long as the app; its heartbeat beats after
    // every cycle.
    DaemonApp(Options options, config::ConfigFiles files, Config config, RunLock lock);
    ~DaemonApp();
    DaemonApp(const DaemonApp&) = delete;
    DaemonApp& operator=(const DaemonApp&) = delete;

    int runDaemon(); // until SIGTERM/SIGINT; returns the exit code
    int runOnce();   // one full cycle, a report on stdout; 0 when the textfile was written

private:
    void addSources();
    void loadPlugins();
    void startBus();
    void startEvents();
    dbus::BusHandlers busHandlers();
    void finishCycle(Snapshot snap);
    void judge(Snapshot& snap);
    void publish(const Snapshot& snap);                  // textfile and D-Bus
    dbus::BusViews busViews(const Snapshot& snap) const; // QoS and the last reload
    void saveState(bool force = false);
    uint32_t clearCondition(const std::string& device, const std::string& code);
    // Remembered NICs absent now forgotten by an operator: `device` (a name or PCI address), or
    // with `device` empty every one. Returns those forgotten.
    std::vector<health::KnownDevice> forgetDevices(const std::string& device);
    void onKernelFindings(KernelFindings findings);
    void onLinkEvent(const netlink::LinkEvent& ev);
    void onReporterEvent(std::vector<HealthReporter> reporters, bool overrun);
    void maybeReady();
    void reload();
    // --once --forget: the NICs named forgotten before the report; false when one could not be.
    bool forgetOnce(Snapshot& snap);

    Options options_;
    RunLock run_lock_;
    config::ConfigFiles files_;
    Config config_; // the current configuration: reload() hands it to every consumer
    // What must not change at runtime is read from this one: the plugins (their directory and
    // sections), and the sources made at start (pre-failure signals, readiness checks, the
    // journal). The worker reads it while a reload changes config_.
    const Config startup_config_;
    HostPaths paths_;
    std::unique_ptr<plugins::PluginManager> plugins_; // used on the worker thread only
    std::unique_ptr<collect::Collector> collector_;   // used on the worker thread only
    std::unique_ptr<health::HealthEngine> health_;    // loop thread
    std::unique_ptr<state::StateKeeper> state_;
    std::unique_ptr<kernel_log::KernelWatch> kernel_;
    std::unique_ptr<provision::ProvisionScheduler> provision_;
    std::unique_ptr<textfile::TextfileSink> textfile_;
    std::vector<std::function<void(const Config&)>> consumers_; // each configure(), in order
    loop::PublishedSnapshot published_;
    CounterRequests counter_requests_; // Port.GetCounters calls waiting for a whole read
    std::unique_ptr<loop::EventLoop> loop_;
    std::unique_ptr<dbus::BusService> bus_; // loop thread; destroyed before the loop
    std::unique_ptr<loop::Worker> worker_;
    std::unique_ptr<collect::CycleScheduler> cycles_;
    std::unique_ptr<netlink::LinkMonitor> links_;
    std::unique_ptr<netlink::DcbMonitor> dcb_events_;
    std::unique_ptr<netlink::DevlinkEvents> devlink_events_;
    std::shared_ptr<std::atomic<bool>> read_reporters_soon_; // ReporterSource's flag
    std::shared_ptr<std::atomic<bool>> read_readiness_soon_; // ReadinessSource's flag
    netlink::LiveLinks live_links_;
    std::vector<KernelFindings> pending_kernel_; // found before the first snapshot
    bool ready_sent_ = false;
    double last_reload_seconds_ = 0; // CLOCK_REALTIME of the last reload; 0: none since start
    std::string last_reload_result_; // "ok" or "failed: ..."
};

} // namespace nicd::app
