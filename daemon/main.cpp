// nicd: provisions RoCE QoS on RDMA NICs and watches their health.
// A straight line: parse the command line, set up logging, load the configuration, run.
#include "app/check_config.hpp"
#include "app/daemon_app.hpp"
#include "app/options.hpp"
#include "app/run_lock.hpp"
#include "app/start_writes.hpp"
#include "config/config_files.hpp"
#include "log/log.hpp"

#include <CLI/CLI.hpp>
#include <malloc.h>
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <exception>
#include <thread>

using namespace nicd;

int main(int argc, char** argv)
{
    // One malloc arena for every thread: the deadline lanes allocate a cycle's samples that the
    // worker then owns, and with an arena per thread both arenas grow to the cycle's size
    // (measured: ~1.4 MiB more peak RSS on 64 devices). nicd's threads rarely allocate at once.
    mallopt(M_ARENA_MAX, 1);
    // Counter files stay open between reads (up to a quarter of the soft limit each for the
    // daemon and a plugin: plugin::sdk::CounterDir). systemd starts services with a soft limit of
    // 1024 and leaves programs that need more to raise it to the hard limit; nicd uses no select().
    if (rlimit rl{}; ::getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        (void)::setrlimit(RLIMIT_NOFILE, &rl);
    }
    app::Options options;
    std::string config_file;
    std::string plugin_directory;
    std::string log_level = "info";
    bool version = false;

    CLI::App cli{"nicd - RoCE QoS provisioning and RDMA NIC health daemon"};
    cli.add_option(
        "--config", config_file,
        "configuration file (default /etc/nicd/nicd.conf under --root; drop-ins in FILE.d/)");
    cli.add_option("--root", options.root,
                   "prefix for every host path (sysfs, /proc, /run, /etc, /var, configfs, journal)")
        ->check(CLI::ExistingDirectory);
    cli.add_option("--plugin-directory", plugin_directory,
                   "load plugins from DIR (instead of [daemon] PluginDirectory=, which is not "
                   "read from a --root tree's configuration)")
        ->check(CLI::ExistingDirectory);
    auto* once = cli.add_flag(
        "--once", options.once,
        "one full cycle: discover, collect, write the textfile, print a summary, exit");
    cli.add_option("--forget", options.forget,
                   "with --once: forget a NIC that is gone on purpose (its name or PCI address), "
                   "as nicctl forget does where nicd is not running")
        ->needs(once);
    cli.add_flag("-v,--verbose", options.verbose,
                 "with --once: every port and QoS setting, not only what is not ok");
    cli.add_flag("--check-config", options.check_config, "validate the configuration and exit");
    cli.add_flag("--json", options.json, "with --check-config or --once: print JSON");
    cli.add_option("--bus", options.bus, "D-Bus to use: system, session or an address");
    cli.add_flag("--no-dbus", options.no_dbus, "run without D-Bus");
    cli.add_flag("--dry-run", options.dry_run,
                 "QoS provisioning says what it would change and changes nothing (DryRun=yes)");
    cli.add_option("--log-level", log_level, "trace, debug, info, warn or error")
        ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error"}));
    cli.add_flag("--version", version, "print the version and exit");
    CLI11_PARSE(cli, argc, argv);

    if (version) {
        std::printf("nicd %s\n", NICD_VERSION);
        return 0;
    }
    // Every host path is the root's joined with an absolute one; a relative --root would make
    // them relative, which the textfile's and the state's directory checks refuse.
    options.root = std::filesystem::absolute(options.root).lexically_normal();
    if (!config_file.empty())
        options.config_file = config_file;
    if (!plugin_directory.empty())
        options.plugin_directory = plugin_directory;
    options.log_level = spdlog::level::from_str(log_level);
    log::setup(log::Target::Auto, options.log_level);

    HostPaths paths(options.root);
    auto files = config::configFiles(options.config_file, paths);
    if (options.check_config)
        return app::checkConfig(files, paths, options.plugin_directory, options.json);

    // nicd --once exits 3 when it could not judge the node (0, 1, 2: its verdict).
    const int failed = options.once ? 3 : 1;
    try {
        auto config = config::loadAndReport(files, paths, options.dry_run);
        if (!config) {
            log::error(
                {}, "not starting: fix the configuration (nicd --check-config shows every error)");
            return failed;
        }
        // One nicd writes a root's state, textfile and QoS (app/run_lock.hpp). A daemon waits a
        // while for one that is stopping (a restart after a kill); --once does not wait.
        auto lock = app::RunLock::take(paths);
        for (int tries = 0;
             !options.once && lock.outcome() == app::RunLock::Outcome::HeldByPeer && tries < 100;
             ++tries) {
            if (tries == 0)
                log::info({}, "waiting for nicd ({}) to stop: it holds {}", lock.holder(),
                          lock.path());
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            lock = app::RunLock::take(paths);
        }
        if (lock.outcome() == app::RunLock::Outcome::Unavailable)
            log::warn({}, "{}: another nicd on this root would go unnoticed", lock.why());
        if (lock.outcome() == app::RunLock::Outcome::HeldByPeer) {
            if (!options.once) {
                log::error({}, "not starting: nicd ({}) runs on {} (it holds {})", lock.holder(),
                           paths.root().string(), lock.path());
                return failed;
            }
            if (!options.dry_run || !options.forget.empty()) {
                log::error({},
                           "nicd ({}) runs on {}: --once{} would rewrite its state, textfile and "
                           "QoS; ask it (nicctl status{}), or add --dry-run to judge the node "
                           "without writing anything",
                           lock.holder(), paths.root().string(),
                           options.forget.empty() ? "" : " --forget",
                           options.forget.empty() ? "" : ", nicctl forget");
                return failed;
            }
            options.beside_daemon = lock.holder();
        }
        // Still one thread: the knob writer is forked, then this process's writes are limited.
        app::startWrites(paths, *config);
        app::DaemonApp app(options, files, std::move(*config), std::move(lock));
        return options.once ? app.runOnce() : app.runDaemon();
    } catch (const std::exception& e) {
        log::error({}, "fatal: {}", e.what());
        return failed;
    }
}
