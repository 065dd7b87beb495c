// When QoS is provisioned: rounds queue up (the verify interval, a port that became
// provisionable, a reload, a DCB change someone else made, a D-Bus Apply or Verify) and run one at
// a time on the worker, through the collector's plugin lane against a deadline, once the driver
// is ready. Drift found by a read-only round is repaired at once where the configuration
// enforces. It reads the last published snapshot and hands back what it produced, the QoS
// summary, through one callback; it never writes into a snapshot. Loop thread, except where noted.
#pragma once

#include "config/config.hpp"
#include "config/host_paths.hpp"
#include "model/snapshot.hpp"
#include "provision/driver_ready.hpp"
#include "provision/port_selection.hpp"
#include "provision/provision_round.hpp"
#include "provision/qos_tracker.hpp"
#include "provision/round_reply.hpp"

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace nicd {

namespace collect {
class Collector;
}
namespace loop {
class EventLoop;
class Worker;
} // namespace loop
namespace plugins {
class PluginManager;
}
} // namespace nicd

namespace nicd::provision {

class ProvisionScheduler {
public:
    // Ports are planned from a snapshot, with the default-route netdevs its cycle read
    // (provision/default_route_source.hpp).
    ProvisionScheduler(const Config& config, const HostPaths& paths,
                       plugins::PluginManager& plugins, collect::Collector& collector);

    // The QoS summary changed: after every round (`round_finished`), or while the driver is not
    // ready (kept for the next publish).
    using Reports = std::function<void(QosSummary qos, bool round_finished)>;
    // The daemon's loop and worker, and its last published snapshot (read only: rounds are
    // planned from it); `reports` runs on the loop.
    void attach(loop::EventLoop& loop, loop::Worker& worker, const std::optional<Snapshot>& last,
                Reports reports);

    // A reload: plans again with the new settings and applies them now.
    void configure(const Config& config);

    // Mode is not off, or a device has its own section.
    bool enabled() const;
    // READY=1 may be sent: nothing to provision, the first round finished with no plugin's
    // driver still awaited, or the driver wait timed out.
    bool settled() const;
    QosSummary summary() const { return qos_.summary(); }

    // After each published cycle: reports what never appeared, queues a round when one is due
    // and starts the next queued one.
    void afterCycle();
    // Devices gone: their ports leave the summary.
    void forgetMissing(const Inventory& inventory) { qos_.forgetMissing(inventory); }
    // A device's hardware is now called `to` (health/device_identity.hpp): its ports' outcomes
    // and counts follow it.
    void renamed(const std::string& from, const std::string& to) { qos_.rename(from, to); }
    // A round on request (D-Bus): `reply` is answered when it finished. Callers of the same kind
    // who ask while such a round waits to start are answered by that one round: however many
    // clients call Verify in a loop, at most one round runs and one more waits (the worker also
    // runs the collection cycles).
    void request(RoundKind kind, std::optional<RoundReply> reply = {});
    // Someone changed DCB on `netdev` (nicd's own writes notify too): verify again.
    void onDcbChange(const std::string& netdev);

    // nicd --once: one round straight through the plugins, planned from `snap`.
    QosSummary runOnce(const Snapshot& snap);

private:
    const Snapshot* last() const { return last_ && *last_ ? &**last_ : nullptr; }
    std::vector<PortPlan> planPorts(const Snapshot& snap) const;
    const std::vector<PortPlan>& currentPlans();
    RoundKind periodicRound() const;
    QosCall deadlineQosCall(std::chrono::milliseconds timeout); // worker thread
    bool driverReady();
    void refreshPluginWaits();
    void reportMissingAfterReadyTimeout();
    void maybeStart();
    void finish(const Round& round);

    struct Request {
        RoundKind kind;
        std::vector<RoundReply> replies; // D-Bus Apply/Verify calls waiting for this round
        bool periodic = false;           // due by interval, link or DCB change, not a call
    };

    Config config_;
    const HostPaths& paths_;
    plugins::PluginManager& plugins_;
    collect::Collector& collector_;
    const std::optional<Snapshot>* last_ = nullptr;
    loop::EventLoop* loop_ = nullptr;
    loop::Worker* worker_ = nullptr;
    Reports reports_;

    QosTracker qos_;
    std::deque<Request> queue_;
    std::vector<RoundReply> replies_; // of the round running now
    bool running_ = false;
    uint64_t last_round_usec_ = 0;
    std::set<std::string> managed_ports_; // "<dev>/<port>" provisioned last time: a new one is due
    std::vector<PortPlan> plans_;         // for the snapshot of cycle plans_cycle_
    uint64_t plans_cycle_ = 0;
    uint64_t started_usec_ = 0;              // CLOCK_MONOTONIC when the scheduler started
    std::set<std::string> missing_reported_; // devices and "<dev>/<port>" reported missing
    bool first_round_done_ = false;
    uint64_t ready_wait_since_usec_ = 0;
    bool ready_timeout_logged_ = false;
    PluginReadyWaits plugin_waits_; // DriverReadyFile=auto: plugins whose driver is not ready
};

} // namespace nicd::provision
