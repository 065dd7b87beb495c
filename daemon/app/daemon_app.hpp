// The daemon's wiring: the startup sequence, the collection cycle on the worker, what happens to
// each snapshot on the loop, reload and shutdown. `--once` runs the same cycle without a loop.
#pragma once

#include "app/config_files.hpp"
#include "app/options.hpp"
#include "config/config.hpp"
#include "config/host_paths.hpp"
#include "dbus/bus_views.hpp"
#include "dbus/qos_reply.hpp"
#include "health/soft_lockup.hpp"
#include "loop/event_loop.hpp"
#include "model/snapshot.hpp"
#include "netlink/link_message.hpp"
#include "provision/qos_tracker.hpp"

#include <nicd/plugin/plugin.h>

#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <set>

namespace nicd {

class Collector;
class KernelJournal;
class StateStore;
namespace netlink {
class LinkMonitor;
class DcbMonitor;
} // namespace netlink
namespace health {
class HealthEngine;
}
namespace dbus {
class BusService;
struct BusHandlers;
} // namespace dbus
class PluginManager;
class Worker;

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
    void startCycle();
    void finishCycle(Snapshot snap);
    bool writeTextfile(const Snapshot& snap);
    void publish(const Snapshot& snap); // textfile and D-Bus
    void startBus();
    dbus::BusHandlers busHandlers();
    uint32_t clearCondition(const std::string& device, const std::string& code);
    // Provisioning: rounds queue up and run one at a time on the worker.
    std::vector<provision::PortPlan> planPorts(const Snapshot& snap) const;
    provision::RoundKind periodicRound() const;
    provision::QosCall deadlineQosCall(std::chrono::milliseconds timeout);
    void requestProvision(provision::RoundKind kind, std::optional<dbus::QosReply> reply = {});
    void maybeStartProvision();
    void finishProvision(const provision::Round& round);
    bool driverReady();
    void scheduleProvisionAfterCycle();
    void reportMissingAfterReadyTimeout();
    const std::vector<provision::PortPlan>& currentPlans(); // needs last_
    void onDcbChange(const std::string& netdev);
    bool provisioningEnabled() const;
    void maybeReady();
    void judge(Snapshot& snap);
    void reload();
    void onLinkEvent(const netlink::LinkEvent& ev);
    void restoreState();
    void saveState(bool force = false);
    void openJournal();
    void drainJournal();
    std::vector<std::string> readKernelLines();
    struct KernelFindings {
        std::vector<plugin::v1::KernelLineMatch> matches;
        std::vector<std::string> lockups; // confirmed soft lockups in mlx5 polling
    };
    KernelFindings classifyKernelLines(const std::vector<std::string>& lines); // worker thread
    void applyKernelFindings(const KernelFindings& f, const Inventory& inventory);
    void applyLiveLinks(Snapshot& snap) const;

    Options options_;
    ConfigFiles files_;
    Config config_;
    const Config startup_config_; // what plugins were loaded with; never changes (worker reads it)
    HostPaths paths_;
    std::unique_ptr<PluginManager> plugins_;       // used on the worker thread only
    std::unique_ptr<Collector> collector_;         // used on the worker thread only
    std::unique_ptr<health::HealthEngine> health_; // loop thread
    std::unique_ptr<EventLoop> loop_;
    std::unique_ptr<dbus::BusService> bus_; // loop thread; destroyed before the loop
    std::unique_ptr<Worker> worker_;
    std::unique_ptr<netlink::LinkMonitor> links_;
    std::unique_ptr<netlink::DcbMonitor> dcb_events_;
    std::map<std::string, NetdevState> live_links_; // from rtnetlink; wins over sysfs
    std::optional<Snapshot> last_;                  // the last published snapshot
    std::unique_ptr<StateStore> state_;
    std::string boot_id_;
    std::optional<std::string> journal_cursor_;
    bool state_dirty_ = false;
    uint64_t last_save_usec_ = 0;
    std::unique_ptr<KernelJournal> journal_;
    EventSource journal_source_;
    health::SoftLockupDetector lockups_;         // loop thread: lines arrive in order
    std::vector<KernelFindings> pending_kernel_; // found before the first snapshot
    EventLoop::Timer* cycle_timer_ = nullptr;
    bool cycle_running_ = false;
    bool collector_rediscover_ = false; // a link changed: re-walk sysfs next cycle
    bool ready_sent_ = false;
    uint64_t last_pma_usec_ = 0;
    uint64_t skipped_cycles_ = 0;

    struct ProvisionRequest {
        provision::RoundKind kind;
        std::optional<dbus::QosReply> reply; // a D-Bus Apply/Verify waiting for this round
    };
    provision::QosTracker qos_;                     // loop thread
    std::deque<ProvisionRequest> provision_queue_;  // loop thread
    std::optional<dbus::QosReply> provision_reply_; // of the round running now
    bool provision_running_ = false;
    uint64_t last_provision_usec_ = 0;
    std::set<std::string> managed_ports_; // "<dev>/<port>" provisioned last time: a new one is due
    std::vector<provision::PortPlan> plans_; // for the snapshot of cycle plans_cycle_
    uint64_t plans_cycle_ = 0;
    uint64_t started_usec_ = 0;              // CLOCK_MONOTONIC when the daemon started
    std::set<std::string> missing_reported_; // devices and "<dev>/<port>" reported missing
    bool first_round_done_ = false; // READY=1 waits for it (or for the driver wait to time out)
    uint64_t ready_wait_since_usec_ = 0;
    bool ready_timeout_logged_ = false;
};

} // namespace nicd
