// nicd-sim: create and drive a simulated GPU node (see sim.hpp).
#include "sim.hpp"

#include <CLI/CLI.hpp>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <thread>

using namespace nicd::sim;

namespace {

std::atomic<bool> g_stop{false};

void registerInjectCommands(CLI::App& inject, std::string& dir, std::function<void()>& action)
{
    static std::string dev;
    static std::string counter;
    static uint32_t port = 0;
    static uint64_t n = 0;
    static double rate = 0;
    auto withDev = [&](const char* name, const char* help) {
        auto* c = inject.add_subcommand(name, help);
        c->add_option("DEV", dev, "RDMA device, e.g. mlx5_0")->required();
        return c;
    };
    auto* down = withDev("link-down", "a port loses its link");
    down->add_option("--port", port, "port number (default: every port)");
    down->callback([&] { action = [&] { linkDown(dir, dev, port); }; });
    auto* up = withDev("link-up", "a port's link comes back");
    up->add_option("--port", port, "port number (default: every port)");
    up->callback([&] { action = [&] { linkUp(dir, dev, port); }; });

    auto* errors = withDev("errors", "a burst: add N to a counter");
    errors->add_option("COUNTER", counter, "counter name (counters/, hw_counters/ or ethtool)")
        ->required();
    errors->add_option("N", n, "how much to add")->required();
    errors->add_option("--port", port, "port number (default 1)");
    errors->callback([&] { action = [&] { addToCounter(dir, dev, counter, n, port); }; });

    auto* r = withDev("rate", "a counter climbs steadily on every tick");
    r->add_option("COUNTER", counter, "counter name")->required();
    r->add_option("PER_SECOND", rate, "increase per second (0 stops it)")->required();
    r->add_option("--port", port, "port number (default 1)");
    r->callback([&] { action = [&] { setRate(dir, dev, counter, rate, port); }; });

    auto* w = withDev("wrap", "set a counter just below 2^32 and make it wrap at 32 bits");
    w->add_option("COUNTER", counter, "counter name")->required();
    w->add_option("--port", port, "port number (default 1)");
    w->callback([&] { action = [&] { wrap(dir, dev, counter, port); }; });

    withDev("reset-counters", "every counter back to 0 (driver reload, admin clear)")
        ->callback([&] { action = [&] { resetCounters(dir, dev); }; });
    withDev("remove", "the RDMA device disappears")->callback([&] {
        action = [&] { remove(dir, dev); };
    });
    withDev("restore", "a removed device comes back")->callback([&] {
        action = [&] { restore(dir, dev); };
    });
    withDev("stall", "counter reads block, like a wedged firmware")->callback([&] {
        action = [&] { stall(dir, dev); };
    });
    withDev("unstall", "counter reads answer again")->callback([&] {
        action = [&] { unstall(dir, dev); };
    });
}

} // namespace

int main(int argc, char** argv)
{
    CLI::App app{"nicd-sim - a simulated GPU node with RDMA NICs, in the kernel's sysfs layout"};
    app.require_subcommand(1);
    std::string dir;
    std::function<void()> action;

    CreateOptions copts;
    auto* create_cmd = app.add_subcommand("create", "build a node under DIR");
    create_cmd->add_option("DIR", dir, "the node's directory")->required();
    create_cmd->add_option("--devices", copts.devices,
                           "N RoCE PFs instead of the default mixed node");
    create_cmd->add_flag("--driver-ready", copts.driver_ready,
                         "create /run/mellanox/drivers/.driver-ready");
    create_cmd->add_option("--boot-id", copts.boot_id, "the node's boot ID");
    create_cmd->add_flag("--force", copts.force, "replace an existing node");
    create_cmd->callback([&] { action = [&] { create(dir, copts); }; });

    double seconds = 1;
    auto* tick_cmd = app.add_subcommand("tick", "advance every counter as if time passed");
    tick_cmd->add_option("DIR", dir, "the node's directory")->required();
    tick_cmd->add_option("--seconds", seconds, "seconds to simulate (default 1)");
    tick_cmd->callback([&] { action = [&] { tick(dir, seconds); }; });

    int interval_ms = 1000;
    int count = 0;
    auto* run_cmd = app.add_subcommand("run", "tick in a loop until SIGTERM/SIGINT");
    run_cmd->add_option("DIR", dir, "the node's directory")->required();
    run_cmd->add_option("--interval-ms", interval_ms, "time between ticks")
        ->check(CLI::Range(10, 3600000));
    run_cmd->add_option("--count", count, "stop after this many ticks (0: never)");
    run_cmd->callback([&] {
        action = [&] {
            std::signal(SIGTERM, [](int) { g_stop = true; });
            std::signal(SIGINT, [](int) { g_stop = true; });
            auto last = std::chrono::steady_clock::now();
            for (int i = 0; !g_stop && (count == 0 || i < count); ++i) {
                std::this_thread::sleep_for(std::chrono::milliseconds(interval_ms));
                auto now = std::chrono::steady_clock::now();
                tick(dir, std::chrono::duration<double>(now - last).count());
                last = now;
            }
        };
    });

    auto* inject =
        app.add_subcommand("inject", "inject a fault: nicd-sim inject DIR FAULT DEV ...");
    inject->add_option("DIR", dir, "the node's directory")->required();
    inject->require_subcommand(1);
    registerInjectCommands(*inject, dir, action);

    auto* list_cmd = app.add_subcommand("list", "one line per device");
    list_cmd->add_option("DIR", dir, "the node's directory")->required();
    list_cmd->callback([&] {
        action = [&] {
            for (const auto& l : list(dir))
                std::printf("%s\n", l.c_str());
        };
    });

    CLI11_PARSE(app, argc, argv);
    try {
        if (action)
            action();
    } catch (const std::exception& e) {
        std::fprintf(stderr, "nicd-sim: %s\n", e.what());
        return 1;
    }
    return 0;
}
