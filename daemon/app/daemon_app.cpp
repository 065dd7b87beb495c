#include "app/daemon_app.hpp"

#include "app/summary.hpp"
#include "collect/collector.hpp"
#include "collect/cycle_scheduler.hpp"
#include "collect/netdev_state_source.hpp"
#include "dbus/bus_errors.hpp"
#include "dbus/bus_handlers.hpp"
#include "dbus/bus_service.hpp"
#include "dbus/bus_views.hpp"
#include "dbus/object_values.hpp"
#include "health/health_engine.hpp"
#include "inventory/nic_roles.hpp"
#include "log/log.hpp"
#include "loop/clock.hpp"
#include "loop/event_loop.hpp"
#include "loop/notify.hpp"
#include "loop/worker.hpp"
#include "netlink/dcb_monitor.hpp"
#include "netlink/devlink_events.hpp"
#include "netlink/link_monitor.hpp"
#include "plugins/plugin_manager.hpp"
#include "privilege/write_limits.hpp"
#include "provision/default_route_source.hpp"
#include "provision/provision_scheduler.hpp"
#include "readiness/readiness_source.hpp"
#include "prefailure/devlink_health.hpp"
#include "prefailure/function_sources.hpp"
#include "prefailure/link_sources.hpp"
#include "prefailure/reporter_source.hpp"
#include "state/state_keeper.hpp"
#include "text/printable.hpp"
#include "textfile/atomic_file.hpp"
#include "textfile/render.hpp"
#include "textfile/textfile_dir.hpp"

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <utility>

namespace nicd {

DaemonApp::DaemonApp(Options options, ConfigFiles files, Config config)
    : options_(std::move(options)), files_(std::move(files)), config_(std::move(config)),
      startup_config_(config_), paths_(options_.root), textfile_pace_(config_.textfile.interval_ms),
      textfile_counters_(config_)
{
    plugins_ = std::make_unique<PluginManager>(paths_, startup_config_);
    collector_ = std::make_unique<Collector>(paths_, *plugins_);
    collector_->setDriverTimeout(std::chrono::milliseconds(config_.health.driver_timeout_ms));
    collector_->setReadSettings(config_.daemon);
    collector_->add(std::make_unique<NetdevStateSource>(paths_));
    collector_->add(std::make_unique<provision::DefaultRouteSource>(paths_));
    addSignalSources();
    auto readiness = std::make_unique<readiness::ReadinessSource>(
        paths_, std::chrono::milliseconds(config_.signals.interval_ms),
        std::chrono::milliseconds(config_.health.driver_timeout_ms));
    read_readiness_soon_ = readiness->readSoonFlag();
    collector_->add(std::move(readiness));
    health_ = std::make_unique<health::HealthEngine>(config_);
    state_ = std::make_unique<StateKeeper>(paths_, config_.daemon.state_directory, *health_);
    state_->restore();
    kernel_ = std::make_unique<KernelWatch>(paths_, state_->bootId(), state_->savedJournalCursor());
    provision_ = std::make_unique<provision::ProvisionScheduler>(config_, paths_, *plugins_,
                                                                 *collector_, last_);
    health_->setRenameListener(
        [this](const std::string& from, const std::string& to) { provision_->renamed(from, to); });
    if (config_.textfile.enable)
        for (const auto& stale : removeStaleTemporaries(paths_.host(config_.textfile.path)))
            log::info({}, "removed {}, left by a nicd that stopped while writing it",
                      stale.string());
}

// The pre-failure sources, each on [signals] IntervalSec= under the driver deadline. Read at
// start: a reload does not change their interval.
void DaemonApp::addSignalSources()
{
    if (!config_.signals.enable)
        return;
    prefailure::SourceTiming timing{std::chrono::milliseconds(config_.signals.interval_ms),
                                 std::chrono::milliseconds(config_.health.driver_timeout_ms)};
    for (auto& source : prefailure::makeLinkSources(paths_, timing))
        collector_->add(std::move(source));
    collector_->add(prefailure::makeTemperatureSource(timing));
    collector_->add(prefailure::makePcieSource(timing));
    auto reporters = prefailure::makeReporterSource(paths_, timing);
    read_reporters_soon_ = reporters->readSoonFlag();
    collector_->add(std::move(reporters));
}

DaemonApp::~DaemonApp()
{
    worker_.reset(); // joins: no plugin call is running past this point
    if (plugins_)
        plugins_->shutdown();
}

void DaemonApp::loadPlugins()
{
    std::filesystem::path dir =
        options_.plugin_directory.value_or(startup_config_.daemon.plugin_directory);
    log::info({}, "loading plugins from {}", dir.string());
    plugins_->loadDirectory(dir);
}

int DaemonApp::runOnce()
{
    loadPlugins();
    Snapshot snap = collector_->collect(true);
    kernel_->open(config_.journal);
    KernelWatch::apply(kernel_->readAll(*plugins_), snap.inventory, *health_);
    judge(snap);
    provision_->runOnce(snap);
    saveState(true);
    bool written = writeTextfile(snap);
    (void)std::fputs(printableLines(onceReport(snap)).c_str(), stdout);
    if (config_.textfile.enable && written)
        (void)std::printf("textfile: %s\n", paths_.host(config_.textfile.path).c_str());
    (void)std::fflush(stdout);
    return written ? 0 : 1;
}

int DaemonApp::runDaemon()
{
    loop_ = std::make_unique<EventLoop>();
    // Signals are blocked before any thread starts, so only the loop's signalfd receives them.
    for (int signo : {SIGTERM, SIGINT})
        loop_->onSignal(signo, [this, signo] {
            log::info({}, "{}: stopping", signo == SIGTERM ? "SIGTERM" : "SIGINT");
            notify::stopping();
            loop_->exit(0);
        });
    loop_->onSignal(SIGHUP, [this] { reload(); });
    loop_->enableWatchdog();
    worker_ = std::make_unique<Worker>();
    publish_alarm_ = &loop_->alarm([this] {
        if (publish_pending_ && last_) {
            (void)publish_pacer_.take(EventLoop::nowMonotonicUsec());
            publish(*last_);
        }
    });
    provision_->attach(*loop_, *worker_, [this] {
        publishSoon();
        maybeReady();
    });
    startBus();
    startLinkEvents();
    startDevlinkEvents();
    worker_->submit([this] { loadPlugins(); });
    kernel_->open(config_.journal);
    // Most kernel lines are nobody's business: they only move the cursor, saved with the next
    // state save. A batch with a driver error is judged now; the state holding it is saved at
    // the end of the next cycle, with the cursor after it (a crash before that reads the lines
    // again, judged against the state they had not yet changed).
    kernel_->follow(*loop_, *worker_, *plugins_, [this](KernelWatch::Findings f) {
        if (!last_) {
            pending_kernel_.push_back(std::move(f));
            return;
        }
        kernel_->applied(f);
        if (f.empty())
            return;
        KernelWatch::apply(f, last_->inventory, *health_);
        health_->report(*last_);
        state_->changed();
        publishSoon();
    });
    cycles_ = std::make_unique<CycleScheduler>(
        *loop_, *worker_, *collector_, [this](Snapshot snap) { finishCycle(std::move(snap)); });
    cycles_->start(config_.daemon.poll_interval_ms, config_.daemon.pma_interval_ms);
    log::info({}, "nicd {} started (root {}, poll every {} ms, PMA counters every {} ms)",
              NICD_VERSION, paths_.root().string(), config_.daemon.poll_interval_ms,
              config_.daemon.pma_interval_ms);
    int r = loop_->run();
    worker_.reset();
    bus_.reset(); // answers pending calls, releases the name, before the loop goes
    saveState(true);
    return r < 0 ? 1 : r;
}

void DaemonApp::startBus()
{
    if (options_.no_dbus)
        return;
    dbus::BusService::Options o;
    o.bus = options_.bus;
    o.version = NICD_VERSION;
    o.republish = [this] {
        if (last_ && bus_)
            bus_->publish(*last_, dbus::busViewsOf(last_->qos));
    };
    bus_ = std::make_unique<dbus::BusService>(loop_->get(), o, busHandlers());
    bus_->start();
}

void DaemonApp::startLinkEvents()
{
    try {
        links_ = std::make_unique<netlink::LinkMonitor>(
            *loop_, [this](const netlink::LinkEvent& ev) { onLinkEvent(ev); });
    } catch (const std::exception& e) {
        log::warn({}, "no rtnetlink link events ({}); netdev state is polled every cycle instead",
                  e.what());
    }
    try {
        dcb_events_ = std::make_unique<netlink::DcbMonitor>(
            *loop_, [this](const std::string& netdev) { provision_->onDcbChange(netdev); });
    } catch (const std::exception& e) {
        log::warn({},
                  "no rtnetlink DCB notifications ({}); QoS drift is found every "
                  "VerifyIntervalSec instead",
                  e.what());
    }
}

void DaemonApp::finishCycle(Snapshot snap)
{
    live_links_.applyTo(snap);
    for (const auto& f : pending_kernel_) {
        KernelWatch::apply(f, snap.inventory, *health_);
        kernel_->applied(f);
    }
    pending_kernel_.clear();
    judge(snap);
    provision_->forgetMissing(snap.inventory);
    snap.qos = provision_->summary();
    publish(snap);
    auto line = statusLine(snap);
    last_ = std::move(snap); // the previous snapshot is freed here, before the state is saved
    saveState();
    provision_->afterCycle(); // plans from this cycle's inventory, not the last one's
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

void DaemonApp::judge(Snapshot& snap)
{
    assignRoles(snap.inventory, snap.default_route_netdevs, config_);
    if (!health_->evaluate(snap, monotonicSeconds(), snap.timestamp_seconds).empty())
        state_->changed();
}

void DaemonApp::saveState(bool force)
{
    state_->save(kernel_->cursor(), force);
}

bool DaemonApp::writeTextfile(const Snapshot& snap)
{
    if (!config_.textfile.enable)
        return true;
    auto path = paths_.host(config_.textfile.path);
    auto render = [this, &snap](const ChunkWriter& write) {
        renderTextfileTo(snap, write, textfile_counters_);
    };
    // Installed before node_exporter (or pointed at a new place): the directory is made. It is
    // opened on descriptors, never through a link its owner (not root) could swap in.
    auto dir = openTextfileDir(path.parent_path());
    for (const auto& made : dir.created)
        log::info({}, "created the textfile directory {} (mode 0755)", made.string());
    auto err = dir.error
                   ? dir.error
                   : writeFileAtomicallyAt(dir.fd.get(), path, render, Durability::Cache, 0644);
    if (err) {
        textfile_failures_.failed(*err, EventLoop::nowMonotonicUsec());
        return false;
    }
    textfile_failures_.succeeded(path.string());
    return true;
}

void DaemonApp::publish(const Snapshot& snap)
{
    publish_pending_ = false;
    const uint64_t now = EventLoop::nowMonotonicUsec();
    if (textfile_pace_.due(snap, now)) {
        textfile_pace_.written(snap, now);
        if (!writeTextfile(snap))
            textfile_pace_.forceNext(); // tried again after the next cycle
    }
    if (bus_)
        bus_->publish(snap, dbus::busViewsOf(snap.qos));
}

void DaemonApp::publishSoon()
{
    if (!last_)
        return;
    publish_pending_ = true;
    if (publish_alarm_->armed())
        return; // goes out with the one already waiting
    uint64_t now = EventLoop::nowMonotonicUsec();
    if (publish_pacer_.take(now))
        publish(*last_);
    else
        publish_alarm_->armIn(publish_pacer_.waitUsec(now));
}

// A netdev changed: the model, health and textfile show it now, not at the next poll.
void DaemonApp::onLinkEvent(const netlink::LinkEvent& ev)
{
    // An MTU change comes as a link event too: the readiness checks read again at the next cycle.
    if (last_ && last_->netdevs.contains(ev.name))
        read_readiness_soon_->store(true);
    auto changed = live_links_.update(ev);
    if (!changed || !last_ || !last_->netdevs.contains(ev.name))
        return;
    log::info({.netdev = ev.name}, "{}: link {} (carrier {})", ev.name, changed->operstate,
              changed->carrier ? (*changed->carrier ? "on" : "off") : "unknown");
    last_->netdevs[ev.name] = *changed;
    rejudgeLast();
    cycles_->rediscoverNext();
}

void DaemonApp::rejudgeLast()
{
    // Counters are judged on fresh reads only: the copy leaves the ~10,000 samples behind.
    auto samples = std::move(last_->samples);
    Snapshot without_samples = *last_;
    last_->samples = std::move(samples);
    judge(without_samples);
    last_->health = std::move(without_samples.health);
    publishSoon();
}

void DaemonApp::startDevlinkEvents()
{
    if (paths_.simulated() || !read_reporters_soon_)
        return; // a simulated node has no devlink; [signals] Enable=no reads none
    try {
        devlink_events_ = std::make_unique<netlink::DevlinkEvents>(
            *loop_, [this](std::vector<HealthReporter> r, bool overrun) {
                onReporterEvent(std::move(r), overrun);
            });
    } catch (const std::exception& e) {
        log::info({}, "no devlink health notifications ({}); reporters are read every {} s",
                  e.what(), config_.signals.interval_ms / 1000);
    }
}

// A health reporter changed state: judged and published now, and the next cycle reads them all.
void DaemonApp::onReporterEvent(std::vector<HealthReporter> reporters, bool overrun)
{
    read_reporters_soon_->store(true);
    if (overrun || !last_)
        return;
    for (auto& r : reporters) {
        if (last_->inventory.ignoresFunction(prefailure::pciAddressView(r.handle)))
            continue;
        log::info({}, "devlink health: {} {} is {} ({} errors, {} recovered)", r.handle, r.name,
                  r.state, r.errors, r.recovers);
        auto same =
            std::find_if(last_->reporters.begin(), last_->reporters.end(),
                         [&](const auto& x) { return x.handle == r.handle && x.name == r.name; });
        if (same != last_->reporters.end())
            *same = std::move(r);
        else
            last_->reporters.push_back(std::move(r));
    }
    rejudgeLast();
    state_->changed(); // saved at the end of the next cycle
}

// READY=1 once the first cycle is published and, where QoS is provisioned, the first round has
// finished (or the driver wait has timed out): units ordered After=nicd.service start on a node
// whose RoCE QoS is set, not merely watched.
void DaemonApp::maybeReady()
{
    if (ready_sent_ || !last_ || !provision_->settled())
        return;
    ready_sent_ = true;
    auto line = statusLine(*last_);
    notify::ready(line);
    log::info({}, "ready: {}", line);
}

void DaemonApp::reload()
{
    notify::reloading();
    log::info({}, "SIGHUP: reloading configuration from {}", files_.main.string());
    auto fresh = loadAndReport(files_, paths_);
    if (!fresh) {
        log::error({}, "configuration has errors; keeping the previous configuration");
        // READY=1 ends the reload RELOADING=1 began, or systemd waits out its timeout.
        notify::ready("reload failed: configuration has errors; running with the previous one");
        return;
    }
    if (fresh->daemon.plugin_directory != config_.daemon.plugin_directory)
        log::warn({}, "PluginDirectory changed: takes effect after a restart");
    if (fresh->textfile.enable &&
        !privilege::mayWriteBeneath(paths_.host(fresh->textfile.path).parent_path())) {
        log::warn({},
                  "[textfile] Path={} is outside the directories nicd may write since it started: "
                  "takes effect after a restart",
                  fresh->textfile.path);
        fresh->textfile.enable = config_.textfile.enable;
        fresh->textfile.path = config_.textfile.path;
    }
    config_ = std::move(*fresh);
    config_.provision.dry_run = config_.provision.dry_run || options_.dry_run;
    health_->setConfig(config_);
    textfile_pace_.setInterval(config_.textfile.interval_ms);
    textfile_pace_.forceNext();
    textfile_counters_ = CounterBudget(config_);
    provision_->reloaded();
    worker_->submit([this, t = std::chrono::milliseconds(config_.health.driver_timeout_ms),
                     daemon = config_.daemon] {
        collector_->setDriverTimeout(t);
        collector_->setReadSettings(daemon); // IgnoreDevices=, dropped counter files read again
        plugins_->reloaded(daemon);
    });
    cycles_->setIntervals(config_.daemon.poll_interval_ms, config_.daemon.pma_interval_ms);
    log::info({}, "configuration reloaded");
    notify::ready("configuration reloaded");
}

} // namespace nicd
