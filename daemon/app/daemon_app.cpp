#include "app/daemon_app.hpp"

#include "app/summary.hpp"
#include "collect/collector.hpp"
#include "health/health_engine.hpp"
#include "log/log.hpp"
#include "loop/event_loop.hpp"
#include "loop/notify.hpp"
#include "loop/worker.hpp"
#include "netlink/link_monitor.hpp"
#include "plugins/plugin_manager.hpp"
#include "textfile/atomic_file.hpp"
#include "textfile/render.hpp"

#include <malloc.h>

#include <csignal>
#include <utility>
#include <cstdio>

namespace nicd {

DaemonApp::DaemonApp(Options options, ConfigFiles files, Config config)
    : options_(std::move(options)), files_(std::move(files)), config_(std::move(config)),
      startup_config_(config_), paths_(options_.root)
{
    plugins_ = std::make_unique<PluginManager>(paths_, startup_config_);
    collector_ = std::make_unique<Collector>(paths_, *plugins_);
    health_ = std::make_unique<health::HealthEngine>(config_);
}

void DaemonApp::judge(Snapshot& snap)
{
    health_->evaluate(snap, static_cast<double>(EventLoop::nowMonotonicUsec()) / 1e6, snap.timestamp_seconds);
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
    if (auto err = writeFileAtomically(path, renderTextfile(snap))) {
        log::error({}, "textfile not written: {}", *err);
        return false;
    }
    return true;
}

int DaemonApp::runOnce()
{
    loadPlugins();
    Snapshot snap = collector_->collect(true);
    judge(snap);
    bool written = writeTextfile(snap);
    std::fputs(onceReport(snap).c_str(), stdout);
    if (config_.textfile.enable && written)
        std::printf("textfile: %s\n", paths_.host(config_.textfile.path).c_str());
    std::fflush(stdout);
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

    try {
        links_ = std::make_unique<netlink::LinkMonitor>(*loop_, [this](const netlink::LinkEvent& ev) { onLinkEvent(ev); });
    } catch (const std::exception& e) {
        log::warn({}, "no rtnetlink link events ({}); netdev state is polled every cycle instead", e.what());
    }
    worker_->submit([this] { loadPlugins(); });
    const uint64_t interval = uint64_t{config_.daemon.poll_interval_ms} * 1000;
    cycle_timer_ = &loop_->every(0, interval, [this] { startCycle(); });
    log::info({}, "nicd {} started (root {}, poll every {} ms, PMA counters every {} ms)",
              NICD_VERSION, paths_.root().string(), config_.daemon.poll_interval_ms,
              config_.daemon.pma_interval_ms);
    int r = loop_->run();
    worker_.reset();
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
    Snapshot links_only = *last_; // counters are judged on fresh reads only
    links_only.samples.clear();
    judge(links_only);
    last_->health = std::move(links_only.health);
    writeTextfile(*last_);
    collector_rediscover_ = true;
}

void DaemonApp::finishCycle(Snapshot snap)
{
    cycle_running_ = false;
    applyLiveLinks(snap);
    judge(snap);
    writeTextfile(snap);
    auto line = statusLine(snap);
    last_ = std::move(snap);
    // The previous cycle's samples and text were freed on this thread but allocated on the
    // worker's: hand the pages back so the resident size stays that of one snapshot.
    malloc_trim(0);
    if (!ready_sent_) {
        ready_sent_ = true;
        notify::ready(line);
        log::info({}, "first cycle complete: {}", line);
    } else {
        notify::status(line);
    }
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
    health_->setConfig(config_);
    if (cycle_timer_)
        cycle_timer_->setInterval(uint64_t{config_.daemon.poll_interval_ms} * 1000);
    log::info({}, "configuration reloaded");
    notify::ready("configuration reloaded");
}

} // namespace nicd
