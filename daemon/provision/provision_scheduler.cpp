#include "provision/provision_scheduler.hpp"

#include "collect/collector.hpp"
#include "log/log.hpp"
#include "loop/clock.hpp"
#include "loop/event_loop.hpp"
#include "loop/worker.hpp"
#include "plugins/plugin_manager.hpp"
#include "provision/driver_ready.hpp"
#include "provision/host_network.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <utility>

namespace nicd::provision {

ProvisionScheduler::ProvisionScheduler(const Config& config, const HostPaths& paths,
                                       plugins::PluginManager& plugins,
                                       collect::Collector& collector)
    : config_(config), paths_(paths), plugins_(plugins), collector_(collector)
{
    qos_.setConfig(config_);
}

void ProvisionScheduler::attach(loop::EventLoop& loop, loop::Worker& worker,
                                const std::optional<Snapshot>& last, Reports reports)
{
    loop_ = &loop;
    worker_ = &worker;
    last_ = &last;
    reports_ = std::move(reports);
    started_usec_ = loop::EventLoop::nowMonotonicUsec();
}

bool ProvisionScheduler::enabled() const
{
    return config_.provision.settings.mode != ProvisionMode::Off || !config_.devices.empty();
}

bool ProvisionScheduler::settled() const
{
    return !enabled() || ready_timeout_logged_ || (first_round_done_ && plugin_waits_.settled());
}

QosSummary ProvisionScheduler::runOnce(const Snapshot& snap)
{
    if (!enabled())
        return snap.qos;
    refreshPluginWaits();
    if (!driverReady())
        return qos_.summary();
    auto plans = planPorts(snap);
    const RoundKind kind = periodicRound();
    // A write reports what the NIC has after it; a read first says what it had, so that the
    // report shows a repair as "pcp -> dscp (repaired)".
    if (kind == RoundKind::Apply)
        qos_.record(runRound(directQosCall(plugins_), snap.inventory, plans, RoundKind::Verify),
                    loop::realtimeSeconds());
    qos_.record(runRound(directQosCall(plugins_), snap.inventory, std::move(plans), kind),
                loop::realtimeSeconds());
    return qos_.summary();
}

void ProvisionScheduler::configure(const Config& config)
{
    config_ = config;
    qos_.setConfig(config_);
    plans_cycle_ = 0;         // planned again with the new settings
    request(periodicRound()); // the new settings, now
}

// The plans for the published snapshot, made once per cycle: the route and bond files are read
// once however many rounds start. A link event between cycles is planned at the next cycle.
const std::vector<PortPlan>& ProvisionScheduler::currentPlans()
{
    if (plans_cycle_ != last()->cycle) {
        plans_ = planPorts(*last());
        plans_cycle_ = last()->cycle;
    }
    return plans_;
}

// Each plugin's driver ready file, looked at again (as a round starts, and each cycle while one is
// awaited): a port whose plugin's file just appeared is planned anew (and so provisioned at once,
// as a new port).
void ProvisionScheduler::refreshPluginWaits()
{
    if (plugin_waits_.refresh(config_.provision, paths_, plugins_.driverReadyFiles(),
                              loop::EventLoop::nowMonotonicUsec()))
        plans_cycle_ = 0;
}

std::vector<PortPlan> ProvisionScheduler::planPorts(const Snapshot& snap) const
{
    SelectionInput in{snap.inventory, snap.netdevs, config_, snap.default_route_netdevs,
                      readBondSlaves(paths_, snap.inventory)};
    auto plans = provision::planPorts(in);
    plugin_waits_.hold(plans, snap.inventory);
    return plans;
}

// QoS calls go through the collector's plugin lane with a deadline: a DCB request stuck in the
// driver (rtnl held by a wedged NIC) must not hold the worker, and so every later cycle, forever.
// Worker thread.
QosCall ProvisionScheduler::deadlineQosCall(std::chrono::milliseconds timeout)
{
    return [this, timeout](const Device& dev, const Port& port,
                           const plugin::v1::QosDesired& desired, plugin::v1::QosReport& out,
                           bool write) {
        struct Call {
            Device dev;
            Port port;
            plugin::v1::QosDesired desired;
            plugin::v1::QosReport report;
            plugin::v1::Status status;
        };
        if (collector_.pluginCallOutstanding())
            return plugin::v1::Status::fail(
                plugin::v1::Errc::Busy, "plugin " + dev.plugin +
                                            " has an earlier call that has not returned; QoS of " +
                                            dev.ibdev + " not read");
        // A call that ends without setting its status (an exception on the lane) failed.
        auto c = std::make_shared<Call>(
            Call{dev,
                 port,
                 desired,
                 {},
                 plugin::v1::Status::fail(plugin::v1::Errc::Internal,
                                          "the QoS call on " + dev.ibdev + " did not complete")});
        bool in_time = collector_.callPlugin(
            dev.ibdev,
            [this, c, write] {
                c->status = write ? plugins_.applyQos(c->dev, c->port, c->desired, c->report)
                                  : plugins_.verifyQos(c->dev, c->port, c->desired, c->report);
            },
            timeout);
        if (!in_time)
            return plugin::v1::Status::fail(
                plugin::v1::Errc::Timeout,
                fmt::format("plugin {} {} QoS on {} port {} did not return within {} ms "
                            "(5 x DriverTimeoutMs); the driver may be wedged",
                            dev.plugin, write ? "applying" : "reading", dev.ibdev, port.num,
                            timeout.count()));
        out = std::move(c->report);
        return std::move(c->status);
    };
}

// Enforce applies (writing only what differs); a dry run says what it would write. Ports in
// Mode=verify are only read whatever the round.
RoundKind ProvisionScheduler::periodicRound() const
{
    return config_.provision.dry_run ? RoundKind::DryRun : RoundKind::Apply;
}

bool ProvisionScheduler::driverReady()
{
    auto named = namedReadyFile(config_.provision, paths_);
    std::error_code ec;
    if (!named || std::filesystem::exists(*named, ec)) {
        if (!qos_.summary().waiting.empty())
            log::info({}, "driver ready ({}): provisioning QoS",
                      named ? named->string() : std::string("no wait"));
        qos_.setWaiting({});
        ready_wait_since_usec_ = 0;
        return true;
    }
    const std::string file = named->string();
    uint64_t now = loop::EventLoop::nowMonotonicUsec();
    if (ready_wait_since_usec_ == 0) {
        ready_wait_since_usec_ = now;
        log::info({}, "waiting for the driver: {} does not exist yet", file);
    }
    uint64_t waited_ms = (now - ready_wait_since_usec_) / 1000;
    std::string why = "waiting for " + file;
    if (waited_ms >= config_.provision.ready_timeout_ms) {
        why += " (not there after " + std::to_string(config_.provision.ready_timeout_ms / 1000) +
               " s)";
        if (!ready_timeout_logged_)
            log::error({},
                       "driver not ready: {} still missing after {} s (ReadyTimeoutSec=); QoS is "
                       "not provisioned until it appears; monitoring goes on",
                       file, config_.provision.ready_timeout_ms / 1000);
        ready_timeout_logged_ = true;
    }
    qos_.setWaiting(why);
    return false;
}

// ReadyTimeoutSec after start, a device named in [device:<ibdev>] that never appeared, or a
// port left without a netdev, is an error an operator sees (once each), not a silent skip.
void ProvisionScheduler::reportMissingAfterReadyTimeout()
{
    uint64_t now = loop::EventLoop::nowMonotonicUsec();
    if (now - started_usec_ < uint64_t{config_.provision.ready_timeout_ms} * 1000)
        return;
    auto seconds = config_.provision.ready_timeout_ms / 1000;
    for (const auto& [ibdev, _] : config_.devices)
        if (!last()->inventory.find(ibdev) && missing_reported_.insert(ibdev).second)
            log::error({.device = ibdev},
                       "{} is configured in [device:{}] but did not appear within {} s "
                       "(ReadyTimeoutSec=): check the driver and the device name",
                       ibdev, ibdev, seconds);
    for (const auto& p : currentPlans()) {
        auto key = p.device + "/" + std::to_string(p.port);
        if (p.reason == "no netdev" && missing_reported_.insert(key).second)
            log::error({.device = p.device, .port = p.port},
                       "{} port {} has no netdev {} s after start (ReadyTimeoutSec=): its QoS "
                       "cannot be provisioned",
                       p.device, p.port, seconds);
    }
}

// A round is due when the verify interval has passed, or when a port became provisionable
// (a link came up, a device (re)appeared, the configuration changed).
void ProvisionScheduler::afterCycle()
{
    if (!enabled() || !last())
        return;
    if (!plugin_waits_.waiting().empty()) // a file appeared: its ports are new ports now
        refreshPluginWaits();
    reportMissingAfterReadyTimeout();
    std::set<std::string> managed;
    for (const auto& p : currentPlans())
        if (p.managed)
            managed.insert(p.device + "/" + std::to_string(p.port));
    bool new_port = std::any_of(managed.begin(), managed.end(),
                                [&](const auto& k) { return !managed_ports_.contains(k); });
    managed_ports_ = std::move(managed);
    uint64_t now = loop::EventLoop::nowMonotonicUsec();
    bool interval = last_round_usec_ == 0 ||
                    now - last_round_usec_ >= uint64_t{config_.provision.verify_interval_ms} * 1000;
    bool queued =
        std::any_of(queue_.begin(), queue_.end(), [](const auto& r) { return r.periodic; });
    if ((new_port || interval) && !queued)
        request(periodicRound());
    maybeStart();
}

void ProvisionScheduler::request(RoundKind kind, std::optional<RoundReply> reply)
{
    if (reply) {
        // A round of this kind that has not started yet reads after this call too: it answers.
        auto waiting = std::find_if(queue_.begin(), queue_.end(),
                                    [&](const auto& r) { return r.kind == kind && !r.periodic; });
        if (waiting != queue_.end()) {
            waiting->replies.push_back(std::move(*reply));
            return;
        }
        Request r{kind, {}, false};
        r.replies.push_back(std::move(*reply));
        queue_.push_back(std::move(r));
    } else {
        queue_.push_back({kind, {}, true});
    }
    maybeStart();
}

void ProvisionScheduler::maybeStart()
{
    if (running_ || queue_.empty() || !last() || !worker_)
        return;
    refreshPluginWaits(); // a round's plans hold back the ports of a plugin whose driver waits
    if (!driverReady()) {
        // Callers on the bus are told at once; the periodic round waits for the driver.
        for (auto& r : queue_)
            for (auto& reply : r.replies)
                reply.fail("Busy", "the driver is not ready: " + qos_.summary().waiting);
        std::erase_if(queue_, [](const auto& r) { return !r.periodic; });
        reports_(qos_.summary(), false);
        return;
    }
    auto next = std::move(queue_.front());
    queue_.pop_front();
    running_ = true;
    replies_ = std::move(next.replies);
    last_round_usec_ = loop::EventLoop::nowMonotonicUsec();
    auto plans = currentPlans();
    // A port's QoS is several driver requests (and a PFC change reconfigures port buffers): five
    // times the budget of one read.
    auto timeout = std::chrono::milliseconds(config_.health.driver_timeout_ms) * 5;
    worker_->submit([this, kind = next.kind, plans = std::move(plans), timeout,
                     inventory = last()->inventory]() mutable {
        // A plugin call left behind by its deadline still holds the plugin: do not call in.
        auto round = std::make_shared<Round>(
            collector_.pluginCallOutstanding()
                ? heldRound(std::move(plans), kind,
                            "a plugin call has not returned (wedged driver?); QoS not read this "
                            "round")
                : runRound(deadlineQosCall(timeout), inventory, std::move(plans), kind));
        loop_->post([this, round] { finish(*round); });
    });
}

void ProvisionScheduler::finish(const Round& round)
{
    running_ = false;
    first_round_done_ = true;
    bool drifted = qos_.record(round, loop::realtimeSeconds());
    if (!replies_.empty()) {
        std::vector<dbus::QosResultRow> rows;
        for (const auto& o : round.ports) {
            if (!o.attempted)
                continue;
            for (const auto& r : o.report.settings) // unsupported: never compliant on the bus
                rows.push_back({o.plan.device, o.plan.port, r.setting, r.desired, r.observed,
                                r.compliant && r.observed != dbus::kQosUnsupported, r.changed,
                                r.error});
            if (o.report.settings.empty())
                rows.push_back({o.plan.device, o.plan.port, "", "", "", false, false, o.error});
        }
        for (auto& reply : replies_)
            reply.succeed(rows);
        replies_.clear();
    }
    // Drift found by a read-only round is repaired at once where the configuration enforces.
    if (drifted && round.kind == RoundKind::Verify && periodicRound() == RoundKind::Apply)
        queue_.push_back({RoundKind::Apply, {}, true});
    if (reports_)
        reports_(qos_.summary(), true);
    maybeStart();
}

// Bursts (64 APP entries, one message each) coalesce into one queued round.
void ProvisionScheduler::onDcbChange(const std::string& netdev)
{
    if (!last())
        return;
    bool ours = netdev.empty();
    for (const auto& d : last()->inventory.devices)
        for (const auto& p : d.ports)
            ours = ours || std::find(p.netdevs.begin(), p.netdevs.end(), netdev) != p.netdevs.end();
    if (!ours && !last()->netdevs.contains(netdev))
        return;
    bool queued =
        std::any_of(queue_.begin(), queue_.end(), [](const auto& r) { return r.periodic; });
    if (queued)
        return;
    log::debug({.netdev = netdev}, "DCB changed on {}: verifying QoS again",
               netdev.empty() ? "some netdev" : netdev);
    request(RoundKind::Verify);
}

} // namespace nicd::provision
