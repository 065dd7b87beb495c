#include "app/daemon_app.hpp"

#include "app/summary.hpp"
#include "collect/collector.hpp"
#include "health/health_engine.hpp"
#include "log/log.hpp"
#include "loop/event_loop.hpp"
#include "loop/notify.hpp"
#include "loop/worker.hpp"
#include "plugins/plugin_manager.hpp"
#include "textfile/atomic_file.hpp"
#include "textfile/render.hpp"

#include <csignal>
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
    worker_->submit([this, read_pma] {
        auto snap = std::make_shared<Snapshot>(collector_->collect(read_pma));
        loop_->post([this, snap] { finishCycle(std::move(*snap)); });
    });
}

void DaemonApp::finishCycle(Snapshot snap)
{
    cycle_running_ = false;
    judge(snap);
    writeTextfile(snap);
    auto line = statusLine(snap);
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
