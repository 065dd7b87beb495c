// Time from `ip link set DEV down` on a veth in a network namespace to nicd's textfile showing it
// (nicd_netdev_up 0), with a 60 s poll interval so only rtnetlink events can explain it.
// Usage: link_latency_bench BUILD_DIR [ROUNDS]; needs root.
#include "sim.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {
std::string slurp(const fs::path& p)
{
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}
bool waitFor(const fs::path& f, const std::string& needle, double timeout_s, double& waited_ms)
{
    auto t0 = Clock::now();
    while (std::chrono::duration<double>(Clock::now() - t0).count() < timeout_s) {
        if (slurp(f).find(needle) != std::string::npos) {
            waited_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
            return true;
        }
        std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    return false;
}
int sh(const std::string& cmd)
{
    return std::system(cmd.c_str());
}
} // namespace

int main(int argc, char** argv)
{
    if (argc < 2 || geteuid() != 0) {
        std::fprintf(stderr, "usage (as root): %s BUILD_DIR [ROUNDS]\n", argv[0]);
        return 2;
    }
    std::string build = argv[1];
    int rounds = argc > 2 ? std::atoi(argv[2]) : 20;
    std::string ns = "nicdbench" + std::to_string(getpid());
    auto dir = fs::temp_directory_path() / ns;
    fs::remove_all(dir);
    nicd::sim::create(dir / "node", {});
    std::ofstream(dir / "nicd.conf")
        << "[daemon]\nPollIntervalMs=60000\nPmaIntervalMs=60000\n[journal]\nEnable=no\n";
    if (sh("ip netns add " + ns) != 0 ||
        sh("ip -n " + ns + " link add ens1f0np0 type veth peer name peer0 && ip -n " + ns +
           " link set peer0 up && ip -n " + ns + " link set ens1f0np0 up") != 0) {
        std::fprintf(stderr, "cannot create the network namespace\n");
        return 1;
    }
    pid_t nicd = fork();
    if (nicd == 0) {
        execlp("ip", "ip", "netns", "exec", ns.c_str(), (build + "/daemon/nicd").c_str(), "--root",
               (dir / "node").c_str(), "--config", (dir / "nicd.conf").c_str(),
               "--plugin-directory", (build + "/plugins").c_str(), "--no-dbus", "--log-level",
               "error", nullptr);
        _exit(127);
    }
    auto textfile = dir / "node/var/lib/prometheus/node-exporter/nicd.prom";
    const std::string up = "netdev=\"ens1f0np0\"} 1";
    const std::string down = "netdev=\"ens1f0np0\"} 0";
    std::vector<double> ms;
    double w = 0;
    bool ok = waitFor(textfile, up, 10, w);
    for (int i = 0; ok && i < rounds; ++i) {
        auto t0 = Clock::now(); // includes starting `ip`: the numbers are an upper bound
        sh("ip -n " + ns + " link set ens1f0np0 down");
        double spawn = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
        if (!waitFor(textfile, down, 5, w)) {
            ok = false;
            break;
        }
        ms.push_back(spawn + w);
        sh("ip -n " + ns + " link set ens1f0np0 up");
        ok = waitFor(textfile, up, 5, w);
    }
    kill(nicd, SIGTERM);
    waitpid(nicd, nullptr, 0);
    sh("ip netns del " + ns);
    fs::remove_all(dir);
    if (!ok || ms.empty()) {
        std::fprintf(stderr, "nicd did not show the link change\n");
        return 1;
    }
    std::sort(ms.begin(), ms.end());
    double p50 = ms[ms.size() / 2];
    double p99 = ms[std::min(ms.size() - 1, ms.size() * 99 / 100)];
    std::printf("link down to textfile: median %.1f ms, worst %.1f ms over %zu rounds (target < 50 "
                "ms): %s\n",
                p50, ms.back(), ms.size(), p99 < 50 ? "met" : "NOT met");
    return 0;
}
