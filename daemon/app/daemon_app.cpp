#include "app/daemon_app.hpp"

#include "app/summary.hpp"
#include "collect/collector.hpp"
#include "dbus/bus_errors.hpp"
#include "dbus/bus_handlers.hpp"
#include "dbus/bus_service.hpp"
#include "dbus/object_values.hpp"
#include "health/health_engine.hpp"
#include "journal/kernel_journal.hpp"
#include "log/log.hpp"
#include "loop/event_loop.hpp"
#include "loop/notify.hpp"
#include "loop/worker.hpp"
#include "netlink/dcb_monitor.hpp"
#include "netlink/link_monitor.hpp"
#include "plugins/plugin_manager.hpp"
#include "provision/driver_ready.hpp"
#include "provision/host_network.hpp"
#include "state/state_store.hpp"
#include "textfile/atomic_file.hpp"
#include "textfile/render.hpp"

#include <fmt/format.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <utility>

namespace nicd {

DaemonApp::DaemonApp(Options options, ConfigFiles files, Config config)
    : options_(std::move(options)), files_(std::move(files)), config_(std::move(config)),
      startup_config_(config_), paths_(options_.root)
{
    plugins_ = std::make_unique<PluginManager>(paths_, startup_config_);
    collector_ = std::make_unique<Collector>(paths_, *plugins_);
    collector_->setDriverTimeout(std::chrono::milliseconds(config_.health.driver_timeout_ms));
    health_ = std::make_unique<health::HealthEngine>(config_);
    qos_.setConfig(config_);
    restoreState();
}

namespace {
double realtimeNow()
{
    timespec ts{};
    clock_gettime(CLOCK_REALTIME, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}
double monotonicNow()
{
    return static_cast<double>(EventLoop::nowMonotonicUsec()) / 1e6;
}
} // namespace

// Within one boot, nicd carries on where it stopped: counter baselines, conditions, the journal
// cursor. A new boot (new hardware, perhaps) starts from a clean baseline.
void DaemonApp::restoreState()
{
    boot_id_ = readBootId(paths_.host("/proc/sys/kernel/random/boot_id"));
    state_ =
        std::make_unique<StateStore>(paths_.host(config_.daemon.state_directory) / "state.json");
    auto saved = state_->load();
    if (saved && saved->boot_id == boot_id_) {
        try {
            health_->restore(saved->health);
            journal_cursor_ = saved->journal_cursor;
            log::info({}, "state restored from {}", state_->file().string());
            return;
        } catch (const std::exception& e) {
            log::error({}, "state in {} is unusable ({}); starting afresh", state_->file().string(),
                       e.what());
        }
    }
    health_->baseline(saved ? "new boot " + boot_id_ + " (the saved state was for boot " +
                                  saved->boot_id + ")"
                            : "no saved state in " + state_->file().string(),
                      realtimeNow());
}

// Written when health changed, and otherwise at most once a minute (counter baselines move every
// cycle; losing a minute of them on a crash costs nothing but a slightly later alarm).
void DaemonApp::saveState(bool force)
{
    uint64_t now = EventLoop::nowMonotonicUsec();
    if (!force && !state_dirty_ && now - last_save_usec_ < 60'000'000ULL)
        return;
    state_dirty_ = false;
    last_save_usec_ = now;
    PersistentState s;
    s.boot_id = boot_id_;
    s.journal_cursor = journal_cursor_;
    s.health = health_->toJson();
    if (auto err = state_->save(std::move(s)))
        log::warn({}, "state not saved: {}", *err);
}

void DaemonApp::openJournal()
{
    if (!config_.journal.enable)
        return;
    try {
        journal_ = std::make_unique<KernelJournal>(paths_.root(), boot_id_, journal_cursor_);
    } catch (const std::exception& e) {
        log::warn({}, "kernel driver errors are not watched: {}", e.what());
    }
}

std::vector<std::string> DaemonApp::readKernelLines()
{
    std::vector<std::string> lines;
    if (!journal_)
        return lines;
    journal_->read([&](const KernelLine& l) { lines.emplace_back(l.message); });
    journal_cursor_ = journal_->cursor();
    return lines;
}

DaemonApp::KernelFindings DaemonApp::classifyKernelLines(const std::vector<std::string>& lines)
{
    KernelFindings f;
    for (const auto& line : lines) {
        plugin::v1::KernelLineMatch m;
        if (plugins_->classifyKernelLine(line, m))
            f.matches.push_back(std::move(m));
    }
    return f;
}

void DaemonApp::applyKernelFindings(const KernelFindings& f, const Inventory& inventory)
{
    for (const auto& m : f.matches)
        health_->kernelLine(m, inventory, monotonicNow(), realtimeNow());
    for (const auto& evidence : f.lockups)
        health_->driverSoftLockup(evidence, inventory, realtimeNow());
}

// New kernel lines: soft lockups are recognised here (they span lines, in order), single lines
// by the plugins on the worker; the findings come back to the loop.
void DaemonApp::drainJournal()
{
    auto lines = readKernelLines();
    if (lines.empty())
        return;
    std::vector<std::string> lockups;
    for (const auto& l : lines)
        if (auto hit = lockups_.feed(l))
            lockups.push_back(*hit);
    worker_->submit([this, lines = std::move(lines), lockups = std::move(lockups)] {
        auto found = std::make_shared<KernelFindings>(classifyKernelLines(lines));
        found->lockups = lockups;
        loop_->post([this, found] {
            if (!last_) {
                pending_kernel_.push_back(std::move(*found));
                return;
            }
            applyKernelFindings(*found, last_->inventory);
            health_->report(*last_);
            publish(*last_);
            saveState(true);
        });
    });
}

void DaemonApp::judge(Snapshot& snap)
{
    if (!health_
             ->evaluate(snap, static_cast<double>(EventLoop::nowMonotonicUsec()) / 1e6,
                        snap.timestamp_seconds)
             .empty())
        state_dirty_ = true;
}

DaemonApp::~DaemonApp()
{
    worker_.reset(); // joins: no plugin call is running past this point
    if (plugins_)
        plugins_->shutdown();
}

void DaemonApp::loadPlugins()
{
    std::filesystem::path dir = startup_config_.daemon.plugin_directory;
    log::info({}, "loading plugins from {}", dir.string());
    plugins_->loadDirectory(dir);
}

bool DaemonApp::writeTextfile(const Snapshot& snap)
{
    if (!config_.textfile.enable)
        return true;
    auto path = paths_.host(config_.textfile.path);
    auto render = [&snap](const ChunkWriter& write) { renderTextfileTo(snap, write); };
    if (auto err = writeFileAtomically(path, render)) {
        log::error({}, "textfile not written: {}", *err);
        return false;
    }
    return true;
}

void DaemonApp::publish(const Snapshot& snap)
{
    writeTextfile(snap);
    if (bus_)
        bus_->publish(snap, dbus::busViewsOf(snap.qos));
}

// An operator's clear of a condition that has no natural recovery (kernel lines): the health,
// the textfile, the bus and the state file show it at once.
uint32_t DaemonApp::clearCondition(const std::string& device, const std::string& code)
{
    if (device.empty() || code.empty())
        throw dbus::MethodFailure("InvalidArgument", "a device and a condition code are needed");
    size_t cleared = health_->clear(device, code, realtimeNow());
    if (cleared == 0)
        throw dbus::MethodFailure("NotFound",
                                  "no active condition " + code + " on device " + device);
    log::info({.device = device}, "condition {} on {} cleared by an operator", code, device);
    if (last_) {
        health_->report(*last_);
        publish(*last_);
    }
    saveState(true);
    return static_cast<uint32_t>(cleared);
}

dbus::BusHandlers DaemonApp::busHandlers()
{
    dbus::BusHandlers h;
    h.reload = [this] { reload(); };
    h.apply = [this](bool dry_run, dbus::QosReply&& reply) {
        requestProvision(dry_run ? provision::RoundKind::DryRun : provision::RoundKind::Apply,
                         std::move(reply));
    };
    h.verify = [this](dbus::QosReply&& reply) {
        requestProvision(provision::RoundKind::Verify, std::move(reply));
    };
    h.events = [this](uint64_t since) { return health_->eventsSince(since); };
    h.clear_condition = [this](const std::string& device, const std::string& code) {
        return clearCondition(device, code);
    };
    h.counters = [this](const std::string& device, uint32_t port) {
        auto counters = last_ ? dbus::countersOf(*last_, device, port) : std::nullopt;
        if (!counters)
            throw dbus::MethodFailure("NotFound", port == 0
                                                      ? device + " is not in the last cycle"
                                                      : device + " port " + std::to_string(port) +
                                                            " is not in the last cycle");
        return *counters;
    };
    return h;
}

void DaemonApp::startBus()
{
    if (options_.no_dbus)
        return;
    dbus::BusService::Options o;
    o.bus = options_.bus;
    o.version = NICD_VERSION;
    bus_ = std::make_unique<dbus::BusService>(loop_->get(), o, busHandlers());
    bus_->start();
}

int DaemonApp::runOnce()
{
    loadPlugins();
    Snapshot snap = collector_->collect(true);
    openJournal();
    auto lines = readKernelLines();
    auto findings = classifyKernelLines(lines);
    for (const auto& l : lines)
        if (auto hit = lockups_.feed(l))
            findings.lockups.push_back(*hit);
    applyKernelFindings(findings, snap.inventory);
    judge(snap);
    if (provisioningEnabled()) {
        if (driverReady())
            qos_.record(provision::runRound(provision::directQosCall(*plugins_), snap.inventory,
                                            planPorts(snap), periodicRound()),
                        realtimeNow());
        snap.qos = qos_.summary();
    }
    saveState(true);
    bool written = writeTextfile(snap);
    (void)std::fputs(onceReport(snap).c_str(), stdout);
    if (config_.textfile.enable && written)
        (void)std::printf("textfile: %s\n", paths_.host(config_.textfile.path).c_str());
    (void)std::fflush(stdout);
    return written ? 0 : 1;
}

int DaemonApp::runDaemon()
{
    loop_ = std::make_unique<EventLoop>();
    // Signals are blocked before any thread starts, so only the loop's signalfd receives them.
    loop_->onSignal(SIGTERM, [this] {
        log::info({}, "SIGTERM: stopping");
        notify::stopping();
        loop_->exit(0);
    });
    loop_->onSignal(SIGINT, [this] {
        log::info({}, "SIGINT: stopping");
        notify::stopping();
        loop_->exit(0);
    });
    loop_->onSignal(SIGHUP, [this] { reload(); });
    loop_->enableWatchdog();
    worker_ = std::make_unique<Worker>();
    started_usec_ = EventLoop::nowMonotonicUsec();
    startBus();

    try {
        links_ = std::make_unique<netlink::LinkMonitor>(
            *loop_, [this](const netlink::LinkEvent& ev) { onLinkEvent(ev); });
    } catch (const std::exception& e) {
        log::warn({}, "no rtnetlink link events ({}); netdev state is polled every cycle instead",
                  e.what());
    }
    try {
        dcb_events_ = std::make_unique<netlink::DcbMonitor>(
            *loop_, [this](const std::string& netdev) { onDcbChange(netdev); });
    } catch (const std::exception& e) {
        log::warn({},
                  "no rtnetlink DCB notifications ({}); QoS drift is found every "
                  "VerifyIntervalSec instead",
                  e.what());
    }
    worker_->submit([this] { loadPlugins(); });
    openJournal();
    if (journal_) {
        sd_event_source* src = nullptr;
        int r = sd_event_add_io(
            loop_->get(), &src, journal_->fd(), static_cast<uint32_t>(journal_->events()),
            [](sd_event_source*, int, uint32_t, void* self) -> int {
                auto* app = static_cast<DaemonApp*>(self);
                app->journal_->process();
                app->drainJournal();
                return 0;
            },
            this);
        if (r < 0)
            log::warn({}, "kernel log not followed live: {}", std::strerror(-r));
        else
            journal_source_ = EventSource(src);
        drainJournal(); // this boot's lines so far, or those since the saved cursor
    }
    const uint64_t interval = uint64_t{config_.daemon.poll_interval_ms} * 1000;
    cycle_timer_ = &loop_->every(0, interval, [this] { startCycle(); });
    log::info({}, "nicd {} started (root {}, poll every {} ms, PMA counters every {} ms)",
              NICD_VERSION, paths_.root().string(), config_.daemon.poll_interval_ms,
              config_.daemon.pma_interval_ms);
    int r = loop_->run();
    worker_.reset();
    bus_.reset(); // answers pending calls, releases the name, before the loop goes
    saveState(true);
    return r < 0 ? 1 : r;
}

void DaemonApp::startCycle()
{
    if (cycle_running_) {
        // The previous cycle is still reading (a slow or wedged driver): never queue up behind it.
        ++skipped_cycles_;
        log::warn({}, "collection cycle still running; skipping this one ({} skipped so far)",
                  skipped_cycles_);
        return;
    }
    cycle_running_ = true;
    uint64_t now = EventLoop::nowMonotonicUsec();
    bool read_pma = last_pma_usec_ == 0 ||
                    now - last_pma_usec_ >= uint64_t{config_.daemon.pma_interval_ms} * 1000;
    if (read_pma)
        last_pma_usec_ = now;
    bool rediscover = std::exchange(collector_rediscover_, false);
    worker_->submit([this, read_pma, rediscover] {
        if (rediscover)
            collector_->rediscover();
        auto snap = std::make_shared<Snapshot>(collector_->collect(read_pma));
        loop_->post([this, snap] { finishCycle(std::move(*snap)); });
    });
}

void DaemonApp::applyLiveLinks(Snapshot& snap) const
{
    for (auto& [name, state] : snap.netdevs) {
        auto it = live_links_.find(name);
        if (it != live_links_.end())
            state = it->second;
    }
}

// A netdev changed: the model, health and textfile show it now, not at the next poll. Under a
// simulated root, events apply to the tree's interface of the same name.
void DaemonApp::onLinkEvent(const netlink::LinkEvent& ev)
{
    if (ev.removed) {
        live_links_.erase(ev.name);
        return;
    }
    NetdevState st;
    st.name = ev.name;
    st.ifindex = ev.ifindex;
    st.operstate = ev.operstate ? netlink::operstateName(*ev.operstate) : "unknown";
    st.carrier = ev.carrier;
    auto old = live_links_.find(ev.name);
    bool changed = old == live_links_.end() || old->second.operstate != st.operstate ||
                   old->second.carrier != st.carrier;
    live_links_[ev.name] = st;
    if (!changed || !last_ || !last_->netdevs.contains(ev.name))
        return;
    log::info({.netdev = ev.name}, "{}: link {} (carrier {})", ev.name, st.operstate,
              st.carrier ? (*st.carrier ? "on" : "off") : "unknown");
    last_->netdevs[ev.name] = st;
    // Counters are judged on fresh reads only: the copy leaves the ~10,000 samples behind.
    auto samples = std::move(last_->samples);
    Snapshot links_only = *last_;
    last_->samples = std::move(samples);
    judge(links_only);
    last_->health = std::move(links_only.health);
    publish(*last_);
    collector_rediscover_ = true;
}

void DaemonApp::finishCycle(Snapshot snap)
{
    cycle_running_ = false;
    applyLiveLinks(snap);
    for (const auto& f : pending_kernel_)
        applyKernelFindings(f, snap.inventory);
    pending_kernel_.clear();
    judge(snap);
    qos_.forgetMissing(snap.inventory);
    snap.qos = qos_.summary();
    publish(snap);
    auto line = statusLine(snap);
    last_ = std::move(snap); // the previous snapshot is freed here, before the state is saved
    saveState();
    scheduleProvisionAfterCycle(); // plans from this cycle's inventory, not the last one's
    maybeStartProvision();
    // No malloc_trim here: the peak is the cycle's own (two snapshots while the new one is made),
    // and pages handed back after every cycle were faulted in and zeroed again by the next one
    // (about 1 ms of CPU a cycle on 64 devices). So between cycles the resident size stays near
    // the peak (glibc gives back only a free top of the heap beyond its trim threshold, which it
    // raises once large blocks have been freed); the peak itself is unchanged.
    if (ready_sent_)
        notify::status(line);
    else
        maybeReady();
}

// READY=1 once the first cycle is published and, where QoS is provisioned, the first round has
// finished (or the driver wait has timed out): units ordered After=nicd.service start on a node
// whose RoCE QoS is set, not merely watched.
void DaemonApp::maybeReady()
{
    if (ready_sent_ || !last_)
        return;
    if (provisioningEnabled() && !first_round_done_ && !ready_timeout_logged_)
        return;
    ready_sent_ = true;
    auto line = statusLine(*last_);
    notify::ready(line);
    log::info({}, "ready: {}", line);
}

bool DaemonApp::provisioningEnabled() const
{
    return config_.provision.settings.mode != ProvisionMode::Off || !config_.devices.empty();
}

void DaemonApp::reload()
{
    notify::reloading();
    log::info({}, "SIGHUP: reloading configuration from {}", files_.main.string());
    auto fresh = loadAndReport(files_);
    if (!fresh) {
        log::error({}, "configuration has errors; keeping the previous configuration");
        notify::status("reload failed: configuration has errors; running with the previous one");
        return;
    }
    if (fresh->daemon.plugin_directory != config_.daemon.plugin_directory)
        log::warn({}, "PluginDirectory changed: takes effect after a restart");
    config_ = std::move(*fresh);
    config_.provision.dry_run = config_.provision.dry_run || options_.dry_run;
    health_->setConfig(config_);
    qos_.setConfig(config_);
    plans_cycle_ = 0;                  // planned again with the new settings
    requestProvision(periodicRound()); // the new settings, now
    worker_->submit([this, t = std::chrono::milliseconds(config_.health.driver_timeout_ms)] {
        collector_->setDriverTimeout(t);
    });
    if (cycle_timer_)
        cycle_timer_->setInterval(uint64_t{config_.daemon.poll_interval_ms} * 1000);
    log::info({}, "configuration reloaded");
    notify::ready("configuration reloaded");
}

} // namespace nicd

namespace nicd {

// The plans for the published snapshot, made once per cycle: the route and bond files are read
// once however many rounds start. A link event between cycles is planned at the next cycle.
const std::vector<provision::PortPlan>& DaemonApp::currentPlans()
{
    if (plans_cycle_ != last_->cycle) {
        plans_ = planPorts(*last_);
        plans_cycle_ = last_->cycle;
    }
    return plans_;
}

std::vector<provision::PortPlan> DaemonApp::planPorts(const Snapshot& snap) const
{
    provision::SelectionInput in{snap.inventory, snap.netdevs, config_,
                                 provision::readDefaultRouteNetdevs(paths_),
                                 provision::readBondSlaves(paths_, snap.inventory)};
    return provision::planPorts(in);
}

// QoS calls go through the collector's plugin lane with a deadline: a DCB request stuck in the
// driver (rtnl held by a wedged NIC) must not hold the worker, and so every later cycle, forever.
// Worker thread.
provision::QosCall DaemonApp::deadlineQosCall(std::chrono::milliseconds timeout)
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
        if (collector_->pluginCallOutstanding())
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
        bool in_time = collector_->callPlugin(
            dev.ibdev,
            [this, c, write] {
                c->status = write ? plugins_->applyQos(c->dev, c->port, c->desired, c->report)
                                  : plugins_->verifyQos(c->dev, c->port, c->desired, c->report);
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
provision::RoundKind DaemonApp::periodicRound() const
{
    return config_.provision.dry_run ? provision::RoundKind::DryRun : provision::RoundKind::Apply;
}

bool DaemonApp::driverReady()
{
    auto file = provision::driverReadyFile(config_.provision, paths_);
    std::error_code ec;
    if (!file || std::filesystem::exists(*file, ec)) {
        if (!qos_.summary().waiting.empty())
            log::info({}, "driver ready ({}): provisioning QoS", file ? file->string() : "no wait");
        qos_.setWaiting({});
        ready_wait_since_usec_ = 0;
        return true;
    }
    uint64_t now = EventLoop::nowMonotonicUsec();
    if (ready_wait_since_usec_ == 0) {
        ready_wait_since_usec_ = now;
        log::info({}, "waiting for the driver: {} does not exist yet", file->string());
    }
    uint64_t waited_ms = (now - ready_wait_since_usec_) / 1000;
    std::string why = "waiting for " + file->string();
    if (waited_ms >= config_.provision.ready_timeout_ms) {
        why += " (not there after " + std::to_string(config_.provision.ready_timeout_ms / 1000) +
               " s)";
        if (!ready_timeout_logged_)
            log::error({},
                       "driver not ready: {} still missing after {} s (ReadyTimeoutSec=); QoS is "
                       "not provisioned until it appears; monitoring goes on",
                       file->string(), config_.provision.ready_timeout_ms / 1000);
        ready_timeout_logged_ = true;
    }
    qos_.setWaiting(why);
    return false;
}

// A round is due when the verify interval has passed, or when a port became provisionable
// (a link came up, a device (re)appeared, the configuration changed).
// ReadyTimeoutSec after start, a device named in [device:<ibdev>] that never appeared, or a
// port left without a netdev, is an error an operator sees (once each), not a silent skip.
void DaemonApp::reportMissingAfterReadyTimeout()
{
    uint64_t now = EventLoop::nowMonotonicUsec();
    if (now - started_usec_ < uint64_t{config_.provision.ready_timeout_ms} * 1000)
        return;
    auto seconds = config_.provision.ready_timeout_ms / 1000;
    for (const auto& [ibdev, _] : config_.devices)
        if (!last_->inventory.find(ibdev) && missing_reported_.insert(ibdev).second)
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

void DaemonApp::scheduleProvisionAfterCycle()
{
    if (!provisioningEnabled())
        return;
    reportMissingAfterReadyTimeout();
    std::set<std::string> managed;
    for (const auto& p : currentPlans())
        if (p.managed)
            managed.insert(p.device + "/" + std::to_string(p.port));
    bool new_port = std::any_of(managed.begin(), managed.end(),
                                [&](const auto& k) { return !managed_ports_.contains(k); });
    managed_ports_ = std::move(managed);
    uint64_t now = EventLoop::nowMonotonicUsec();
    bool interval =
        last_provision_usec_ == 0 ||
        now - last_provision_usec_ >= uint64_t{config_.provision.verify_interval_ms} * 1000;
    bool queued = std::any_of(provision_queue_.begin(), provision_queue_.end(),
                              [](const auto& r) { return !r.reply; });
    if ((new_port || interval) && !queued)
        requestProvision(periodicRound());
}

void DaemonApp::requestProvision(provision::RoundKind kind, std::optional<dbus::QosReply> reply)
{
    provision_queue_.push_back({kind, std::move(reply)});
    maybeStartProvision();
}

void DaemonApp::maybeStartProvision()
{
    if (provision_running_ || provision_queue_.empty() || !last_ || !worker_)
        return;
    if (!driverReady()) {
        // Callers on the bus are told at once; the periodic round waits for the driver.
        for (auto& r : provision_queue_)
            if (r.reply)
                r.reply->fail("Busy", "the driver is not ready: " + qos_.summary().waiting);
        std::erase_if(provision_queue_, [](const auto& r) { return r.reply.has_value(); });
        last_->qos = qos_.summary();
        return;
    }
    auto request = std::move(provision_queue_.front());
    provision_queue_.pop_front();
    provision_running_ = true;
    provision_reply_ = std::move(request.reply);
    last_provision_usec_ = EventLoop::nowMonotonicUsec();
    auto plans = currentPlans();
    // A port's QoS is several driver requests (and a PFC change reconfigures port buffers): five
    // times the budget of one read.
    auto timeout = std::chrono::milliseconds(config_.health.driver_timeout_ms) * 5;
    worker_->submit([this, kind = request.kind, plans = std::move(plans), timeout,
                     inventory = last_->inventory]() mutable {
        // A plugin call left behind by its deadline still holds the plugin: do not call in.
        auto round = std::make_shared<provision::Round>(
            collector_->pluginCallOutstanding()
                ? provision::heldRound(std::move(plans), kind,
                                       "a plugin call has not returned (wedged driver?); QoS not "
                                       "read this round")
                : provision::runRound(deadlineQosCall(timeout), inventory, std::move(plans), kind));
        loop_->post([this, round] { finishProvision(*round); });
    });
}

void DaemonApp::finishProvision(const provision::Round& round)
{
    provision_running_ = false;
    first_round_done_ = true;
    bool drifted = qos_.record(round, realtimeNow());
    if (provision_reply_) {
        std::vector<dbus::QosResultRow> rows;
        for (const auto& o : round.ports) {
            if (!o.attempted)
                continue;
            for (const auto& r : o.report.settings)
                rows.push_back({o.plan.device, o.plan.port, r.setting, r.desired, r.observed,
                                r.compliant, r.changed, r.error});
            if (o.report.settings.empty())
                rows.push_back({o.plan.device, o.plan.port, "", "", "", false, false, o.error});
        }
        provision_reply_->succeed(rows);
        provision_reply_.reset();
    }
    // Drift found by a read-only round is repaired at once where the configuration enforces.
    if (drifted && round.kind == provision::RoundKind::Verify &&
        periodicRound() == provision::RoundKind::Apply)
        provision_queue_.push_back({provision::RoundKind::Apply, {}});
    if (last_) {
        last_->qos = qos_.summary();
        publish(*last_);
    }
    maybeReady();
    maybeStartProvision();
}

} // namespace nicd

namespace nicd {

// Someone changed DCB on a netdev (nicd's own writes notify too): verify the ports that use it.
// Bursts (64 APP entries, one message each) coalesce into one queued round.
void DaemonApp::onDcbChange(const std::string& netdev)
{
    if (!last_)
        return;
    bool ours = netdev.empty();
    for (const auto& d : last_->inventory.devices)
        for (const auto& p : d.ports)
            ours = ours || std::find(p.netdevs.begin(), p.netdevs.end(), netdev) != p.netdevs.end();
    if (!ours && !last_->netdevs.contains(netdev))
        return;
    bool queued = std::any_of(provision_queue_.begin(), provision_queue_.end(),
                              [](const auto& r) { return !r.reply; });
    if (queued)
        return;
    log::debug({.netdev = netdev}, "DCB changed on {}: verifying QoS again",
               netdev.empty() ? "some netdev" : netdev);
    requestProvision(provision::RoundKind::Verify);
}

} // namespace nicd
