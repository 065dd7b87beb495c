// nicd-sim run DIR [--interval-ms MS] [--count N]: tick in a loop, each tick by the time that
// really passed, until SIGTERM/SIGINT or N ticks; on a capture, play its samples instead
// (capture_replay.hpp).
#include "capture_replay.hpp"
#include "cli/registry.hpp"

#include <signal.h>

#include <atomic>
#include <chrono>
#include <thread>

namespace nicd::sim::cli {

namespace {

std::atomic<bool> g_stop{false};

struct RunArgs {
    int interval_ms = 1000;
    bool interval_given = false;
    int count = 0;
};

void runLoop(const fs::path& dir, const RunArgs& a)
{
    struct sigaction sa {};
    sa.sa_handler = [](int) { g_stop = true; };
    ::sigemptyset(&sa.sa_mask);
    ::sigaction(SIGTERM, &sa, nullptr);
    ::sigaction(SIGINT, &sa, nullptr);
    if (isCapture(dir)) {
        playSamples(dir, a.interval_given ? std::optional<int>(a.interval_ms) : std::nullopt,
                    a.count, g_stop);
        return;
    }
    using clock = std::chrono::steady_clock;
    auto last = clock::now();
    auto next = last;
    for (int i = 0; !g_stop && (a.count == 0 || i < a.count); ++i) {
        next += std::chrono::milliseconds(a.interval_ms);
        // Sleep in short steps so a signal stops the loop promptly.
        while (!g_stop && clock::now() < next)
            std::this_thread::sleep_for(
                std::min<clock::duration>(next - clock::now(), std::chrono::milliseconds(50)));
        if (g_stop)
            break;
        auto now = clock::now();
        tick(dir, std::chrono::duration<double>(now - last).count());
        last = now;
    }
}

} // namespace

// NOLINTNEXTLINE(cert-err58-cpp): registered before main; a failure there is fatal anyway
NICD_SIM_COMMAND(
    run, "run",
    "tick in a loop until SIGTERM/SIGINT (or --count ticks); on a capture, play its samples",
    [](CLI::App& cmd) {
        auto a = std::make_shared<RunArgs>();
        auto* interval = cmd.add_option("--interval-ms", a->interval_ms,
                                        "time between ticks (default 1000; a capture: as recorded)")
                             ->check(CLI::Range(10, 3600000));
        cmd.add_option("--count", a->count, "stop after N ticks (default: never)")
            ->check(CLI::NonNegativeNumber);
        return [a, interval](const fs::path& dir) {
            a->interval_given = interval->count() > 0;
            runLoop(dir, *a);
        };
    },
    30);

} // namespace nicd::sim::cli
