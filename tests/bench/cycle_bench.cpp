// CPU time of nicd's collection cycle (discover, read every counter, plugins, render the textfile)
// on a simulated tree. Usage: cycle_bench ROOT PLUGIN_DIR [CYCLES]
// With an empty PLUGIN_DIR ("") no plugin loads: nicd then reads what node_exporter's infiniband
// collector reads (sysfs attributes and counters/), for a like-for-like comparison.
#include "collect/collector.hpp"
#include "collect/netdev_state_source.hpp"
#include "config/config.hpp"
#include "log/log.hpp"
#include "plugins/plugin_manager.hpp"
#include "textfile/render.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace {
double cpuSeconds()
{
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    return static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
           static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}
// Renders the textfile as the daemon does (streamed a chunk at a time); its size in bytes.
size_t textfileBytes(const nicd::Snapshot& snap)
{
    size_t bytes = 0;
    nicd::textfile::renderTextfileTo(snap,
                                     [&bytes](std::string_view chunk) { bytes += chunk.size(); });
    return bytes;
}
} // namespace

int main(int argc, char** argv)
{
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s ROOT PLUGIN_DIR [CYCLES]\n", argv[0]);
        return 2;
    }
    nicd::log::setup(nicd::log::Target::Stderr, spdlog::level::warn);
    int cycles = argc > 3 ? std::atoi(argv[3]) : 50;
    nicd::HostPaths paths(argv[1]);
    nicd::Config config;
    config.daemon.plugin_directory = argv[2];
    nicd::plugins::PluginManager plugins(paths, config);
    if (argv[2][0] != '\0')
        plugins.loadDirectory(argv[2]);
    nicd::collect::Collector collector(paths, plugins, config);
    collector.add(std::make_unique<nicd::collect::NetdevStateSource>(paths));
    size_t bytes = textfileBytes(collector.collect(true)); // warm up
    double start = cpuSeconds();
    for (int i = 0; i < cycles; ++i)
        bytes = textfileBytes(collector.collect(true));
    double per_cycle = (cpuSeconds() - start) / cycles;
    // What the daemon spends per cycle at its default intervals: counters/ (one firmware query
    // per file on hardware) is read every PmaIntervalMs, the rest every PollIntervalMs.
    const int pma_every = static_cast<int>(std::max<uint32_t>(
        1, config.daemon.pma_interval_ms / std::max<uint32_t>(1, config.daemon.poll_interval_ms)));
    start = cpuSeconds();
    for (int i = 0; i < cycles; ++i)
        bytes = textfileBytes(collector.collect(i % pma_every == 0));
    double per_default_cycle = (cpuSeconds() - start) / cycles;
    std::printf("nicd_cycle_cpu_seconds %.6f\nnicd_default_cycle_cpu_seconds %.6f\n"
                "nicd_pma_every_cycles %d\nnicd_textfile_bytes %zu\n",
                per_cycle, per_default_cycle, pma_every, bytes);
    plugins.shutdown();
    return 0;
}
