// The read floor: what reading nicd's per-cycle data costs at the least, for `make bench` to hold
// nicd's cycle against (nicd / floor). Usage:
//
//   read_floor_bench ROOT [INTERVAL_MS [CYCLES]]
//
// Finds, under ROOT, every file nicd reads each fast cycle on a node at PollIntervalMs =
// PmaIntervalMs: each RDMA device's ports/N/counters/* and ports/N/hw_counters/* (and a
// device-wide hw_counters/*), each port's state, phys_state and rate, each of its netdevs'
// operstate, carrier and ifindex, and the simulator's `ethtool -S` capture of each netdev
// (run/nicd-sim/ethtool/<netdev>, what the mlx5 plugin reads under --root; ~180 KB of text a
// netdev of 64 channels). Opens each once, then every INTERVAL_MS (default 1000) reads each whole
// with one pread() at offset 0 into a buffer larger than the largest file, and nothing else: no
// parsing, no allocation, no output. Runs CYCLES cycles (default: until SIGTERM or SIGINT).
// Prints "files N", "bytes B" (read per cycle) and "ethtool_files E" on stdout once the first
// cycle is done. A tree without run/nicd-sim/ethtool gives the floor without the ethtool part.
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

volatile std::sig_atomic_t g_stop = 0;

std::vector<std::string> entries(const std::string& dir)
{
    std::vector<std::string> out;
    DIR* d = opendir(dir.c_str());
    if (!d)
        return out;
    while (dirent* e = readdir(d))
        if (e->d_name[0] != '.')
            out.emplace_back(e->d_name);
    closedir(d);
    return out;
}

size_t g_largest = 0;       // the largest file's size, for the read buffer
size_t g_ethtool_files = 0; // of which the simulator's ethtool captures

bool addFile(std::vector<int>& fds, const std::string& path)
{
    int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    struct stat st {};
    if (fstat(fd, &st) == 0 && static_cast<size_t>(st.st_size) > g_largest)
        g_largest = static_cast<size_t>(st.st_size);
    fds.push_back(fd);
    return true;
}

void addDirFiles(std::vector<int>& fds, const std::string& dir)
{
    for (const auto& name : entries(dir))
        addFile(fds, dir + "/" + name);
}

std::vector<int> openFiles(const std::string& root)
{
    std::vector<int> fds;
    const std::string ib = root + "/sys/class/infiniband";
    for (const auto& dev : entries(ib)) {
        const std::string d = ib + "/" + dev;
        addDirFiles(fds, d + "/hw_counters");
        for (const auto& port : entries(d + "/ports")) {
            const std::string p = d + "/ports/" + port;
            addDirFiles(fds, p + "/counters");
            addDirFiles(fds, p + "/hw_counters");
            for (const char* attr : {"state", "phys_state", "rate"})
                addFile(fds, p + "/" + attr);
        }
        for (const auto& netdev : entries(d + "/device/net")) {
            for (const char* attr : {"operstate", "carrier", "ifindex"})
                addFile(fds, root + "/sys/class/net/" + netdev + "/" + attr);
            if (addFile(fds, root + "/run/nicd-sim/ethtool/" + netdev))
                ++g_ethtool_files;
        }
    }
    return fds;
}

void sleepUntil(timespec& next, long interval_ms)
{
    next.tv_nsec += interval_ms % 1000 * 1000000L;
    next.tv_sec += interval_ms / 1000 + next.tv_nsec / 1000000000L;
    next.tv_nsec %= 1000000000L;
    while (!g_stop && clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, nullptr) == EINTR) {
    }
}

} // namespace

int main(int argc, char** argv)
{
    if (argc < 2) {
        (void)std::fprintf(stderr, "usage: %s ROOT [INTERVAL_MS [CYCLES]]\n", argv[0]);
        return 2;
    }
    const long interval_ms = argc > 2 ? std::atol(argv[2]) : 1000;
    const long cycles = argc > 3 ? std::atol(argv[3]) : 0;
    struct sigaction sa {};
    sa.sa_handler = [](int) { g_stop = 1; };
    sigaction(SIGTERM, &sa, nullptr);
    sigaction(SIGINT, &sa, nullptr);

    std::vector<int> fds = openFiles(argv[1]);
    if (fds.empty()) {
        (void)std::fprintf(stderr, "read_floor_bench: no file to read under %s\n", argv[1]);
        return 1;
    }
    // Room for the largest file and then some (sysfs attributes are at most a page; the ethtool
    // text grows a little as its values do): one pread reads any file whole.
    std::vector<char> buf(std::max<size_t>(65536, g_largest * 2));
    timespec next{};
    clock_gettime(CLOCK_MONOTONIC, &next);
    for (long i = 0; !g_stop && (cycles == 0 || i < cycles); ++i) {
        size_t bytes = 0;
        for (int fd : fds) {
            ssize_t n = pread(fd, buf.data(), buf.size(), 0);
            if (n > 0)
                bytes += static_cast<size_t>(n);
        }
        if (i == 0) {
            (void)std::printf("files %zu\nbytes %zu\nethtool_files %zu\n", fds.size(), bytes,
                              g_ethtool_files);
            (void)std::fflush(stdout);
        }
        sleepUntil(next, interval_ms);
    }
    for (int fd : fds)
        close(fd);
    return 0;
}
