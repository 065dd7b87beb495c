// nicd: provisions RoCE QoS on RDMA NICs and watches their health.
// A straight line: parse the command line, set up logging, load the configuration, run.
#include "app/daemon_app.hpp"
#include "app/options.hpp"
#include "config/config_files.hpp"
#include "log/log.hpp"
#include "plugins/plugin_schemas.hpp"
#include "privilege/write_limits.hpp"
#include "text/printable.hpp"

#include <CLI/CLI.hpp>
#include <malloc.h>
#include <sys/resource.h>

#include <cstdio>
#include <exception>

using namespace nicd;

namespace {

// The configuration as nicd would load it, then its [plugin:NAME] sections against the plugins
// of the plugin directory (each library opened and its descriptor read; none created).
int checkConfig(const ConfigFiles& files, const HostPaths& paths,
                const std::optional<std::filesystem::path>& plugin_directory)
{
    auto result = loadConfig(files.main, files.dropin_dir, paths, files.main_required);
    if (result.config) {
        const auto dir = plugin_directory.value_or(result.config->daemon.plugin_directory);
        std::vector<config::PluginSchema> plugins;
        if (std::error_code ec; std::filesystem::is_directory(dir, ec))
            plugins = readPluginSchemas(dir, *result.config, result.errors);
        else
            result.warnings.push_back({dir.string(), 0, "", "",
                                       "no plugin directory: plugin sections cannot be checked"});
        config::checkPluginSections(*result.config, plugins, dir.string(), result.errors,
                                    result.warnings);
        if (!result.errors.empty())
            result.config.reset();
    }
    for (const auto& w : result.warnings)
        (void)std::fprintf(stderr, "warning: %s\n", w.format().c_str());
    for (const auto& line : formatErrors(result.errors))
        (void)std::fprintf(stderr, "%s\n", line.c_str());
    if (!result.config) {
        (void)std::fprintf(stderr, "configuration is invalid (%zu error%s)\n", result.errors.size(),
                           result.errors.size() == 1 ? "" : "s");
        return 1;
    }
    std::printf("configuration is valid:");
    if (result.config->sources.empty())
        std::printf(" no files (all defaults)");
    for (const auto& f : result.config->sources)
        std::printf(" %s", printable(f.string()).c_str());
    std::printf("\n");
    return 0;
}

} // namespace

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
    Options options;
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
    cli.add_flag("--once", options.once,
                 "one full cycle: discover, collect, write the textfile, print a summary, exit");
    cli.add_flag("--check-config", options.check_config, "validate the configuration and exit");
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
    if (!config_file.empty())
        options.config_file = config_file;
    if (!plugin_directory.empty())
        options.plugin_directory = plugin_directory;
    options.log_level = spdlog::level::from_str(log_level);
    log::setup(log::Target::Auto, options.log_level);

    HostPaths paths(options.root);
    auto files = configFiles(options.config_file, paths);
    if (options.check_config)
        return checkConfig(files, paths, options.plugin_directory);

    try {
        auto config = loadAndReport(files, paths, options.dry_run);
        if (!config) {
            log::error(
                {}, "not starting: fix the configuration (nicd --check-config shows every error)");
            return 1;
        }
        // Still one thread: the knob writer is forked, then this process's writes are limited.
        privilege::limitWrites(paths, *config);
        DaemonApp app(options, files, std::move(*config));
        return options.once ? app.runOnce() : app.runDaemon();
    } catch (const std::exception& e) {
        log::error({}, "fatal: {}", e.what());
        return 1;
    }
}
