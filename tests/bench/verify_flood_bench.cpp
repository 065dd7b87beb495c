// verify_flood_bench BUS_ADDRESS CLIENTS SECONDS
// CLIENTS processes, each running as nobody with a bus connection of its own, call
// io.nicd.Nicd1.Manager.Verify in a loop (the next call as soon as the last one is answered) for
// SECONDS; then one line: "N Verify calls answered (R/s), E failed". The load of
// scripts/bench.d/verify_flood.sh, which measures nicd's collection cycle under it.
#include "dbus/qos_reply.hpp"

#include <nicd/client/bus_connection.hpp>

#include <grp.h>
#include <pwd.h>
#include <sdbus-c++/sdbus-c++.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using Clock = std::chrono::steady_clock;

namespace {

// In the child: the calls made until the deadline, as "answered failed".
std::string flood(const std::string& address, Clock::time_point until)
{
    const passwd* nobody = ::getpwnam("nobody");
    if (nobody == nullptr || ::setgroups(0, nullptr) != 0 || ::setgid(nobody->pw_gid) != 0 ||
        ::setuid(nobody->pw_uid) != 0)
        return "0 0 cannot become nobody";
    long answered = 0, failed = 0;
    try {
        auto connection = nicd::dbus::openBus(address);
        auto manager = sdbus::createProxy(*connection, "io.nicd.Nicd1", "/io/nicd/Nicd1");
        nicd::dbus::QosRowsWire rows;
        while (Clock::now() < until) {
            try {
                manager->callMethod("Verify")
                    .onInterface("io.nicd.Nicd1.Manager")
                    .storeResultsTo(rows);
                ++answered;
            } catch (const sdbus::Error&) {
                ++failed;
            }
        }
    } catch (const std::exception& e) {
        return std::to_string(answered) + " " + std::to_string(failed) + " " + e.what();
    }
    return std::to_string(answered) + " " + std::to_string(failed);
}

} // namespace

int main(int argc, char** argv)
{
    if (argc != 4) {
        std::fprintf(stderr, "usage: %s BUS_ADDRESS CLIENTS SECONDS\n", argv[0]);
        return 2;
    }
    const std::string address = argv[1];
    const int clients = std::atoi(argv[2]);
    const int seconds = std::atoi(argv[3]);
    const auto until = Clock::now() + std::chrono::seconds(seconds);
    std::vector<std::pair<pid_t, int>> children;
    for (int i = 0; i < clients; ++i) {
        int p[2];
        if (::pipe(p) != 0)
            return 1;
        pid_t pid = ::fork();
        if (pid == 0) {
            ::close(p[0]);
            std::string out = flood(address, until);
            (void)!::write(p[1], out.data(), out.size());
            ::_exit(0);
        }
        ::close(p[1]);
        children.emplace_back(pid, p[0]);
    }
    long answered = 0, failed = 0;
    std::string problems;
    for (auto [pid, fd] : children) {
        char buf[512] = {};
        ssize_t n = ::read(fd, buf, sizeof buf - 1);
        ::close(fd);
        ::waitpid(pid, nullptr, 0);
        long a = 0, f = 0;
        int used = 0;
        if (n > 0 && std::sscanf(buf, "%ld %ld%n", &a, &f, &used) >= 2) {
            answered += a;
            failed += f;
            if (buf[used] != '\0')
                problems += std::string(buf + used) + ";";
        }
    }
    std::printf("%ld Verify calls answered (%.1f/s), %ld failed%s%s\n", answered,
                static_cast<double>(answered) / seconds, failed, problems.empty() ? "" : ":",
                problems.c_str());
    return 0;
}
