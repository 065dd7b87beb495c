// verbs_check IBDEV TIMEOUT_MS ROUNDS INTERVAL_MS [LEASE_PATH RELEASE_AFTER_MS]
// nicd's verbs probe as the collector runs it (VerbsLane: ibv_open_device + ibv_query_port
// against the driver deadline), ROUNDS times INTERVAL_MS apart; one line per round:
// "round N MS ok" or "round N MS <why the device is unresponsive>", MS being how long the round
// held the caller. With LEASE_PATH (the device node), a read lease is taken on it first: an open
// for writing then blocks in the kernel, like a driver that does not answer, until the lease is
// let go RELEASE_AFTER_MS later.
#include "collect/verbs_lane.hpp"
#include "log/log.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

using Clock = std::chrono::steady_clock;

int main(int argc, char** argv)
{
    if (argc != 5 && argc != 7) {
        (void)std::fprintf(stderr,
                           "usage: %s IBDEV TIMEOUT_MS ROUNDS INTERVAL_MS [LEASE_PATH "
                           "RELEASE_AFTER_MS]\n",
                           argv[0]);
        return 2;
    }
    nicd::log::setup(nicd::log::Target::Stderr, spdlog::level::warn);
    std::string ibdev = argv[1];
    auto timeout = std::chrono::milliseconds(std::atoi(argv[2]));
    int rounds = std::atoi(argv[3]);
    auto interval = std::chrono::milliseconds(std::atoi(argv[4]));

    std::thread releaser;
    if (argc == 7) {
        (void)std::signal(SIGIO, SIG_IGN); // the kernel tells the lease holder that someone waits
        int fd = ::open(argv[5], O_RDONLY | O_CLOEXEC);
        if (fd < 0 || ::fcntl(fd, F_SETLEASE, F_RDLCK) != 0) {
            (void)std::fprintf(stderr, "verbs_check: cannot take a lease on %s: %s\n", argv[5],
                               std::strerror(errno));
            return 2;
        }
        auto after = std::chrono::milliseconds(std::atoi(argv[6]));
        releaser = std::thread([fd, after] {
            std::this_thread::sleep_for(after);
            ::close(fd); // the blocked open goes on
        });
    }
    nicd::collect::VerbsLane prober;
    for (int i = 1; i <= rounds; ++i) {
        auto t0 = Clock::now();
        std::string why = prober.check(ibdev, timeout);
        auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0);
        std::printf("round %d %lld %s\n", i, static_cast<long long>(ms.count()),
                    why.empty() ? "ok" : why.c_str());
        (void)std::fflush(stdout);
        if (i < rounds)
            std::this_thread::sleep_for(interval);
    }
    if (releaser.joinable())
        releaser.join();
    (void)std::fflush(stdout);
    _exit(0); // a probe may still be blocked on its abandoned lane
}
