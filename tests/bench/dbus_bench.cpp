// D-Bus latency with 64 devices on a real bus: a private dbus-daemon, nicd serving a simulated
// 64-device node, and a client timing GetManagedObjects, a property read and one port's
// GetCounters (target: < 2 ms per call). The latency is wall time, so on a busy machine it holds
// the waits for a CPU too; beside it, nicd's own CPU per GetManagedObjects (every thread's, less
// what nicd spent in as long a time without calls: its cycles). Usage: dbus_bench NICD_BIN
// PLUGIN_DIR [CALLS]
#include "sim.hpp"

#include <sdbus-c++/sdbus-c++.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <thread>
#include <vector>

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

pid_t spawn(std::vector<std::string> argv, const fs::path& log)
{
    pid_t pid = fork();
    if (pid == 0) {
        FILE* f = std::freopen(log.c_str(), "w", stdout);
        (void)f;
        dup2(1, 2);
        std::vector<char*> args;
        for (auto& a : argv)
            args.push_back(a.data());
        args.push_back(nullptr);
        execvp(args[0], args.data());
        _exit(127);
    }
    return pid;
}

void report(const char* what, std::vector<double> ms, bool targeted = true)
{
    std::sort(ms.begin(), ms.end());
    double median = ms[ms.size() / 2];
    double p99 = ms[std::min(ms.size() - 1, ms.size() * 99 / 100)];
    if (!targeted) {
        std::printf("%s: median %.3f ms, p99 %.3f ms over %zu calls\n", what, median, p99,
                    ms.size());
        return;
    }
    std::printf("%s: median %.3f ms, p99 %.3f ms over %zu calls (target < 2 ms): %s\n", what,
                median, p99, ms.size(), median < 2.0 ? "met" : "NOT met");
}

// CPU time of every thread of a process, in ms (/proc/PID/task/*/schedstat: time on a CPU).
double cpuMs(pid_t pid)
{
    double ns = 0;
    const fs::path tasks = "/proc/" + std::to_string(pid) + "/task";
    std::error_code ec;
    for (const auto& t : fs::directory_iterator(tasks, ec)) {
        std::ifstream in(t.path() / "schedstat");
        double on_cpu = 0;
        if (in >> on_cpu)
            ns += on_cpu;
    }
    return ns / 1e6;
}

std::vector<double> time(int calls, const std::function<void()>& call)
{
    std::vector<double> ms;
    for (int i = 0; i < calls; ++i) {
        auto t0 = Clock::now();
        call();
        ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    }
    return ms;
}

} // namespace

int main(int argc, char** argv)
{
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s NICD_BIN PLUGIN_DIR [CALLS]\n", argv[0]);
        return 2;
    }
    int calls = argc > 3 ? std::atoi(argv[3]) : 200;
    fs::path dir = fs::temp_directory_path() / ("nicd-dbus-bench-" + std::to_string(getpid()));
    fs::create_directories(dir);
    nicd::sim::CreateOptions o;
    o.devices = 64;
    nicd::sim::create(dir / "node", o);
    std::string address = "unix:path=" + (dir / "bus.socket").string();
    std::ofstream(dir / "bus.conf") << "<busconfig><type>session</type><listen>" << address
                                    << "</listen><auth>EXTERNAL</auth><policy "
                                       "context=\"default\"><allow send_destination=\"*\" "
                                       "eavesdrop=\"true\"/><allow eavesdrop=\"true\"/><allow "
                                       "own=\"*\"/></policy></busconfig>\n";
    std::ofstream(dir / "nicd.conf") << "[daemon]\nPollIntervalMs=1000\nPmaIntervalMs=5000\n";
    pid_t bus = spawn(
        {"dbus-daemon", "--nofork", "--nopidfile", "--config-file=" + (dir / "bus.conf").string()},
        dir / "bus.log");
    while (!fs::exists(dir / "bus.socket"))
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    pid_t nicd =
        spawn({argv[1], "--root", (dir / "node").string(), "--config", (dir / "nicd.conf").string(),
               "--plugin-directory", argv[2], "--bus", address, "--log-level", "warn"},
              dir / "nicd.log");
    int rc = 0;
    try {
        auto connection = sdbus::createSessionBusConnectionWithAddress(address);
        auto root = sdbus::createProxy(*connection, "io.nicd.Nicd1", "/io/nicd/Nicd1");
        auto device =
            sdbus::createProxy(*connection, "io.nicd.Nicd1", "/io/nicd/Nicd1/device/mlx5_63");
        auto port = sdbus::createProxy(*connection, "io.nicd.Nicd1",
                                       "/io/nicd/Nicd1/device/mlx5_63/port/1");
        using Objects = std::map<sdbus::ObjectPath,
                                 std::map<std::string, std::map<std::string, sdbus::Variant>>>;
        Objects objects;
        auto get_all = [&] {
            root->callMethod("GetManagedObjects")
                .onInterface("org.freedesktop.DBus.ObjectManager")
                .storeResultsTo(objects);
        };
        for (int i = 0; i < 300 && objects.size() < 64 * 2 + 1; ++i) {
            try {
                get_all();
            } catch (const sdbus::Error&) {
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        std::printf("objects on the bus: %zu\n", objects.size());
        if (objects.size() < 64 * 2 + 1)
            throw std::runtime_error("nicd did not publish the 64-device node");
        // The server's side: nicd builds and sends the reply; the client does not unpack it.
        const double idle0 = cpuMs(nicd);
        const auto quiet0 = Clock::now();
        std::this_thread::sleep_for(std::chrono::seconds(2)); // nicd's cycles without calls
        const double idle_ms_per_s =
            (cpuMs(nicd) - idle0) / std::chrono::duration<double>(Clock::now() - quiet0).count();
        const double busy0 = cpuMs(nicd);
        const auto calls0 = Clock::now();
        report("GetManagedObjects (64 devices, 64 ports, 1 plugin), reply not unpacked",
               time(calls, [&] {
                   root->callMethod("GetManagedObjects")
                       .onInterface("org.freedesktop.DBus.ObjectManager");
               }));
        const double busy_s = std::chrono::duration<double>(Clock::now() - calls0).count();
        std::printf("GetManagedObjects: nicd's CPU per call %.3f ms (less its cycles' %.1f ms a "
                    "second)\n",
                    std::max(0.0, cpuMs(nicd) - busy0 - idle_ms_per_s * busy_s) / calls,
                    idle_ms_per_s);
        // What a client that reads every property pays in all (sdbus-c++ unpacks each variant):
        // the client's own cost on top, for the record.
        report("GetManagedObjects, unpacked by an sdbus-c++ client (client cost included)",
               time(calls, get_all), false);
        report("Get io.nicd.Nicd1.Device.Health", time(calls, [&] {
                   device->getProperty("Health")
                       .onInterface("io.nicd.Nicd1.Device")
                       .get<std::string>();
               }));
        std::map<std::string, uint64_t> counters;
        report("GetCounters of one port, unpacked", time(calls, [&] {
                   port->callMethod("GetCounters")
                       .onInterface("io.nicd.Nicd1.Port")
                       .storeResultsTo(counters);
               }));
        std::printf("counters of one port: %zu\n", counters.size());
    } catch (const std::exception& e) {
        std::fprintf(stderr, "dbus_bench: %s\n", e.what());
        rc = 1;
    }
    kill(nicd, SIGTERM);
    kill(bus, SIGTERM);
    waitpid(nicd, nullptr, 0);
    waitpid(bus, nullptr, 0);
    fs::remove_all(dir);
    return rc;
}
