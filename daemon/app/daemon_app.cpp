#include "app/daemon_app.hpp"

#include "collect/collector.hpp"
#include "collect/cycle_scheduler.hpp"
#include "collect/netdev_state_source.hpp"
#include "dbus/bus_handlers.hpp"
#include "dbus/bus_service.hpp"
#include "dbus/bus_views.hpp"
#include "health/health_engine.hpp"
#include "inventory/nic_roles.hpp"
#include "log/log.hpp"
#include "loop/clock.hpp"
#include "loop/notify.hpp"
#include "loop/worker.hpp"
#include "neighbor/neighbor_source.hpp"
#include "netlink/dcb_monitor.hpp"
#include "netlink/devlink_events.hpp"
#include "netlink/link_monitor.hpp"
#include "plugins/plugin_manager.hpp"
#include "prefailure/devlink_health.hpp"
#include "prefailure/function_sources.hpp"
#include "prefailure/link_sources.hpp"
#include "prefailure/reporter_source.hpp"
#include "provision/default_route_source.hpp"
#include "provision/provision_scheduler.hpp"
#include "readiness/readiness_source.hpp"
#include "report/once_report.hpp"
#include "report/summary.hpp"
#include "state/state_keeper.hpp"
#include "text/printable.hpp"
#include "textfile/textfile_sink.hpp"

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <utility>

namespace nicd::app {

using Judge = loop::PublishedSnapshot::Judge;
using Publish = loop::PublishedSnapshot::Publish;

DaemonApp::DaemonApp(Options options, config::ConfigFiles files, Config config, RunLock lock)
    : options_(std::move(options)), run_lock_(std::move(lock)), files_(std::move(files)),
      config_(std::move(config)), startup_config_(config_), paths_(options_.root),
      published_({.evaluate = [this](Snapshot& s) { judge(s); },
                  .report = [this](Snapshot& s) { health_->report(s); },
                  .publish = [this](const Snapshot& s) { publish(s); }})
{
    plugins_ = std::make_unique<plugins::PluginManager>(paths_, startup_config_);
    collector_ = std::make_unique<collect::Collector>(paths_, *plugins_, config_);
    addSources();
    health_ = std::make_unique<health::HealthEngine>(config_);
    state_ = std::make_unique<state::StateKeeper>(paths_, config_.daemon.state_directory, *health_);
    state_->restore();
    kernel_ = std::make_unique<kernel_log::KernelWatch>(paths_, state_->bootId(),
                                                        state_->savedJournalCursor());
    provision_ =
        std::make_unique<provision::ProvisionScheduler>(config_, paths_, *plugins_, *collector_);
    health_->setRenameListener(
        [this](const std::string& from, const std::string& to) { provision_->renamed(from, to); });
    textfile_ = std::make_unique<textfile::TextfileSink>(paths_, config_);
    // A reload reaches each in this order; the cycle scheduler joins when the loop starts.
    consumers_ = {
        [this](const Config& c) { health_->configure(c); },
        [this](const Config& c) { textfile_->configure(c); },
        [this](const Config& c) { provision_->configure(c); },
        [this](const Config& c) {
            worker_->submit([this, c] {
                collector_->configure(c); // IgnoreDevices=, dropped counter files read again
                plugins_->configure(c);
            });
        },
    };
}

// What the collector reads beside the inventory and counters. The pre-failure sources and the
// readiness checks run on [signals] IntervalSec= under the driver deadline, read at start: a
// reload does not change their interval.
void DaemonApp::addSources()
{
    collector_->add(std::make_unique<collect::NetdevStateSource>(paths_));
    collector_->add(std::make_unique<provision::DefaultRouteSource>(paths_));
    prefailure::SourceTiming timing{std::chrono::milliseconds(config_.signals.interval_ms),
                                    std::chrono::milliseconds(config_.health.driver_timeout_ms)};
    if (config_.signals.enable) {
        for (auto& source : prefailure::makeLinkSources(paths_, timing))
            collector_->add(std::move(source));
        collector_->add(prefailure::makeTemperatureSource(timing));
        collector_->add(prefailure::makePcieSource(timing));
        auto reporters = prefailure::makeReporterSource(paths_, timing);
        read_reporters_soon_ = reporters->readSoonFlag();
        collector_->add(std::move(reporters));
    }
    collector_->add(
        std::make_unique<neighbor::NeighborSource>(paths_, timing.interval, timing.timeout));
    auto readiness =
        std::make_unique<readiness::ReadinessSource>(paths_, timing.interval, timing.timeout);
    read_readiness_soon_ = readiness->readSoonFlag();
    collector_->add(std::move(readiness));
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
    health_->kernelFindings(kernel_->readAll(*plugins_), snap.inventory, loop::monotonicSeconds(),
                            loop::realtimeSeconds());
    judge(snap);
    const bool forgot = forgetOnce(snap);
    snap.qos = provision_->runOnce(snap);
    // Beside a running nicd (--dry-run, main.cpp) its state and textfile are its own.
    const bool writes = !options_.beside_daemon;
    if (writes)
        saveState(true);
    const bool written = writes && textfile_->write(snap);
    const bool shown = written && textfile_->enabled();
    if (options_.json) {
        auto j = report::onceJson(snap);
        j["textfile"] =
            shown ? nlohmann::json(textfile_->path().string()) : nlohmann::json(nullptr);
        j["exit_code"] = report::onceExitCode(snap, writes == written && forgot);
        (void)std::puts(j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
    } else {
        (void)std::fputs(printableLines(report::onceReport(snap, options_.verbose)).c_str(),
                         stdout);
        if (shown)
            (void)std::printf("textfile: %s\n", textfile_->path().c_str());
        if (!writes)
            (void)std::printf("nothing written: nicd (%s) runs on this root\n",
                              printable(*options_.beside_daemon).c_str());
    }
    (void)std::fflush(stdout);
    return report::onceExitCode(snap, writes == written && forgot);
}

bool DaemonApp::forgetOnce(Snapshot& snap)
{
    bool ok = true;
    for (const auto& name : options_.forget) {
        const bool present =
            snap.inventory.find(name) != nullptr ||
            std::any_of(snap.inventory.devices.begin(), snap.inventory.devices.end(),
                        [&](const Device& d) { return d.pci_address == name; });
        auto forgotten = present
                             ? std::vector<health::KnownDevice>{}
                             : health_->forgetMissing(name, snap.inventory, snap.timestamp_seconds);
        if (forgotten.empty()) {
            log::error({}, "--forget {}: {}", name,
                       present ? "it is present: only a device that is gone can be forgotten"
                               : "nicd remembers no absent device of that name or PCI address");
            ok = false;
        }
        for (const auto& k : forgotten)
            log::warn({.device = k.name}, "{}{} forgotten (--forget): it is not expected back",
                      k.name, k.pci_address.empty() ? "" : " (PCI " + k.pci_address + ")");
    }
    if (!options_.forget.empty()) {
        health_->report(snap);
        state_->changed();
    }
    return ok;
}

int DaemonApp::runDaemon()
{
    loop_ = std::make_unique<loop::EventLoop>();
    // Signals are blocked before any thread starts, so only the loop's signalfd receives them.
    for (int signo : {SIGTERM, SIGINT})
        loop_->onSignal(signo, [this, signo] {
            log::info({}, "{}: stopping", signo == SIGTERM ? "SIGTERM" : "SIGINT");
            loop::notify::stopping();
            loop_->exit(0);
        });
    loop_->onSignal(SIGHUP, [this] { reload(); });
    loop_->enableWatchdog();
    worker_ = std::make_unique<loop::Worker>();
    published_.attach(*loop_);
    provision_->attach(*loop_, *worker_, published_.get(), [this](QosSummary qos, bool finished) {
        published_.amend([&](Snapshot& s) { s.qos = std::move(qos); }, Judge::None,
                         finished ? Publish::Paced : Publish::WithNext);
        if (finished)
            maybeReady();
    });
    startBus();
    startEvents();
    worker_->submit([this] { loadPlugins(); });
    kernel_->open(config_.journal);
    kernel_->follow(*loop_, *worker_, *plugins_,
                    [this](KernelFindings f) { onKernelFindings(std::move(f)); });
    cycles_ = std::make_unique<collect::CycleScheduler>(
        *loop_, *worker_, *collector_, config_,
        [this](Snapshot snap) { finishCycle(std::move(snap)); },
        [this] { return counter_requests_.wholeDevices(loop::EventLoop::nowMonotonicUsec()); });
    consumers_.emplace_back([this](const Config& c) { cycles_->configure(c); });
    cycles_->start();
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
        if (const auto& last = published_.get(); last && bus_)
            bus_->publish(*last, busViews(*last));
    };
    bus_ = std::make_unique<dbus::BusService>(loop_->get(), o, busHandlers());
    bus_->start();
}

// Link, DCB and devlink health events between cycles; without them, what they tell is read at
// the next cycle or verify round.
void DaemonApp::startEvents()
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

void DaemonApp::finishCycle(Snapshot snap)
{
    live_links_.applyTo(snap);
    for (const auto& f : pending_kernel_) {
        health_->kernelFindings(f, snap.inventory, loop::monotonicSeconds(),
                                loop::realtimeSeconds());
        kernel_->applied(f);
    }
    pending_kernel_.clear();
    // Before judging: the switch rules compare the switch's QoS with what provisioning read.
    snap.qos = provision_->summary();
    judge(snap);
    // Again after: judging followed renames, which move provisioning's counts to the new names.
    provision_->forgetMissing(snap.inventory);
    snap.qos = provision_->summary();
    published_.replace(std::move(snap)); // the previous one is freed before the state is saved
    counter_requests_.published(*published_.get());
    run_lock_.beat(loop::realtimeSeconds());
    saveState();
    provision_->afterCycle(); // plans from this cycle's inventory, not the last one's
    if (ready_sent_)
        loop::notify::status(report::statusLine(*published_.get()));
    else
        maybeReady();
}

void DaemonApp::judge(Snapshot& snap)
{
    inventory::assignRoles(snap.inventory, snap.default_route_netdevs, config_);
    if (!health_->evaluate(snap, loop::monotonicSeconds(), snap.timestamp_seconds).empty())
        state_->changed();
}

void DaemonApp::publish(const Snapshot& snap)
{
    textfile_->publish(snap, loop::EventLoop::nowMonotonicUsec());
    if (bus_)
        bus_->publish(snap, busViews(snap));
}

dbus::BusViews DaemonApp::busViews(const Snapshot& snap) const
{
    auto views = dbus::busViewsOf(snap.qos);
    views.last_reload_usec = dbus::usecOf(last_reload_seconds_);
    views.last_reload_result = last_reload_result_;
    return views;
}

void DaemonApp::saveState(bool force)
{
    state_->save(kernel_->cursor(), force);
}

// Most kernel lines are nobody's business: they only move the cursor, saved with the next state
// save. A batch with a driver error is judged now; the state holding it is saved at the end of
// the next cycle, with the cursor after it (a crash before that reads the lines again, judged
// against the state they had not yet changed).
void DaemonApp::onKernelFindings(KernelFindings f)
{
    if (!published_.get()) {
        pending_kernel_.push_back(std::move(f));
        return;
    }
    kernel_->applied(f);
    if (f.empty())
        return;
    published_.amend(
        [&](Snapshot& s) {
            health_->kernelFindings(f, s.inventory, loop::monotonicSeconds(),
                                    loop::realtimeSeconds());
        },
        Judge::Report, Publish::Paced);
    state_->changed();
}

// A netdev changed: the model, health and textfile show it now, not at the next poll.
void DaemonApp::onLinkEvent(const netlink::LinkEvent& ev)
{
    const auto& last = published_.get();
    // An MTU change comes as a link event too: the readiness checks read again at the next cycle.
    if (last && last->netdevs.contains(ev.name))
        read_readiness_soon_->store(true);
    auto changed = live_links_.update(ev);
    if (!changed || !last || !last->netdevs.contains(ev.name))
        return;
    log::info({.netdev = ev.name}, "{}: link {} (carrier {})", ev.name, changed->operstate,
              changed->carrier ? (*changed->carrier ? "on" : "off") : "unknown");
    published_.amend([&](Snapshot& s) { s.netdevs[ev.name] = *changed; }, Judge::Evaluate,
                     Publish::Paced);
    cycles_->rediscoverNext();
}

// A health reporter changed state: judged and published now, and the next cycle reads them all.
void DaemonApp::onReporterEvent(std::vector<HealthReporter> reporters, bool overrun)
{
    read_reporters_soon_->store(true);
    auto merge = [&](Snapshot& s) {
        for (auto& r : reporters) {
            if (s.inventory.ignoresFunction(prefailure::pciAddressView(r.handle)))
                continue;
            log::info({}, "devlink health: {} {} is {} ({} errors, {} recovered)", r.handle, r.name,
                      r.state, r.errors, r.recovers);
            auto same = std::find_if(s.reporters.begin(), s.reporters.end(), [&](const auto& x) {
                return x.handle == r.handle && x.name == r.name;
            });
            if (same != s.reporters.end())
                *same = std::move(r);
            else
                s.reporters.push_back(std::move(r));
        }
    };
    if (!overrun && published_.amend(merge, Judge::Evaluate, Publish::Paced))
        state_->changed(); // saved at the end of the next cycle
}

// READY=1 once the first cycle is published and, where QoS is provisioned, the first round has
// finished (or the driver wait has timed out): units ordered After=nicd.service start on a node
// whose RoCE QoS is set, not merely watched.
void DaemonApp::maybeReady()
{
    if (ready_sent_ || !published_.get() || !provision_->settled())
        return;
    ready_sent_ = true;
    auto line = report::statusLine(*published_.get());
    loop::notify::ready(line);
    log::info({}, "ready: {}", line);
}

void DaemonApp::reload()
{
    loop::notify::reloading();
    log::info({}, "SIGHUP: reloading configuration from {}", files_.main.string());
    std::string problem;
    auto fresh = config::loadAndReport(files_, paths_, options_.dry_run, &problem);
    last_reload_seconds_ = loop::realtimeSeconds();
    last_reload_result_ = fresh ? "ok" : "failed: " + problem;
    if (const auto& last = published_.get(); last && bus_)
        bus_->publish(*last, busViews(*last));
    if (!fresh) {
        log::error({}, "configuration has errors; keeping the previous configuration");
        // READY=1 ends the reload RELOADING=1 began, or systemd waits out its timeout.
        loop::notify::ready(
            "reload failed: configuration has errors; running with the previous one");
        return;
    }
    if (fresh->daemon.plugin_directory != config_.daemon.plugin_directory)
        log::warn({}, "PluginDirectory changed: takes effect after a restart");
    config_ = std::move(*fresh);
    for (const auto& configure : consumers_)
        configure(config_);
    log::info({}, "configuration reloaded");
    loop::notify::ready("configuration reloaded");
}

} // namespace nicd::app
