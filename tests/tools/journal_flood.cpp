// journal_flood: kernel lines in journal export format at a steady rate, for the soak
// (scripts/soak.sh) to pipe into systemd-journal-remote. Cheap enough that the load it puts on
// the node is the journal's and nicd's, not its own (the shell loop it replaces took a good part
// of a core at 2,000 lines a second).
//
//   journal_flood [--stop-file PATH] RATE SECONDS BOOT_ID FIRST PCI...
//
// Writes RATE lines a second for SECONDS seconds, in batches every 100 ms, numbered from FIRST
// (the count goes on across calls): line n is, when n is a multiple of 200, an mlx5 driver error
// nicd classifies (four kinds in turn) on PCI function PCI[(n / (RATE * 8)) % count] (the device
// changes every 8 s, so kernel conditions raise and expire across the node), else kernel noise
// (1 in 8 of it an mlx5 register access error for a PCI address the node does not have:
// classified and counted, never a condition). Timestamps are now (CLOCK_REALTIME) and, one boot's
// entries being ordered by monotonic time, a monotonic time derived from it. Stops early on
// SIGTERM/SIGINT, when stdout closes, or once PATH exists. Prints the next line number to stderr at
// the end.
#include "usec_clock.hpp"

#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

namespace {

using nicd::test_tools::usecNow;

volatile std::sig_atomic_t g_stop = 0;

const char* const kClassified[] = {
    "mlx5_core %s: wait_func:1132:(pid 4242): QUERY_VPORT_COUNTER(0x770) timeout. Will cause a "
    "leak of a command resource",
    "mlx5_core %s: mlx5_cmd_out_err:835:(pid 18360): ACCESS_REG(0x805) op_mod(0x1) failed, status "
    "bad operation(0x2), syndrome (0x9a6171), err(-22)",
    "mlx5_core %s: Port module event: module 0, Cable unplugged",
    "mlx5_core %s: mlx5_pcie_event:299:(pid 268269): Detected insufficient power on the PCIe slot "
    "(27W).",
};

const char* const kNoise[] = {
    "audit: type=1400 audit(%llu.%llu:%llu): apparmor=\"DENIED\" operation=\"open\" "
    "profile=\"snap.lxd\" name=\"/proc/self/mounts\" comm=\"lxd\"",
    "EXT4-fs (nvme0n1p2): %llu orphan inodes deleted; recovery complete (%llu/%llu)",
    "IPv6: ADDRCONF(NETDEV_CHANGE): veth%llu: link becomes ready (%llu %llu)",
    "mlx5_core 0000:ff:00.0: mlx5_cmd_out_err:835:(pid %llu): ACCESS_REG(0x805) op_mod(0x1) "
    "failed, status bad operation(0x2), syndrome (0x%llu), err(-%llu)",
    "usb 1-%llu: new high-speed USB device number %llu using xhci_hcd (%llu)",
    "nvidia-nvlink: Nvlink Core is being initialized, major device number %llu (%llu %llu)",
    "mlx5_core 0000:10:00.0: Link up, %llu Mbps (%llu %llu)",
    "TCP: request_sock_TCP: Possible SYN flooding on port %llu. Sending cookies. (%llu %llu)",
};

} // namespace

int main(int argc, char** argv)
{
    const char* stop_file = nullptr;
    if (argc > 2 && std::string(argv[1]) == "--stop-file") {
        stop_file = argv[2];
        argv += 2;
        argc -= 2;
    }
    if (argc < 6) {
        (void)std::fputs(
            "usage: journal_flood [--stop-file PATH] RATE SECONDS BOOT_ID FIRST PCI...\n", stderr);
        return 2;
    }
    const unsigned long long rate = std::strtoull(argv[1], nullptr, 10);
    const unsigned long long seconds = std::strtoull(argv[2], nullptr, 10);
    const std::string boot_id = argv[3];
    unsigned long long n = std::strtoull(argv[4], nullptr, 10);
    const std::vector<std::string> pcis(argv + 5, argv + argc);
    if (rate < 10) {
        (void)std::fputs("journal_flood: RATE must be at least 10\n", stderr);
        return 2;
    }
    struct sigaction sa {};
    sa.sa_handler = [](int) { g_stop = 1; };
    sigaction(SIGTERM, &sa, nullptr);
    sigaction(SIGINT, &sa, nullptr);
    std::signal(SIGPIPE, SIG_IGN);

    const unsigned long long per_tick = rate / 10;
    const unsigned long long start = usecNow(CLOCK_MONOTONIC);
    const unsigned long long until = start + seconds * 1000000ULL;
    unsigned long long next = start;
    const unsigned long long boot_offset = usecNow(CLOCK_REALTIME) - start; // real - monotonic
    char msg[512];
    bool ok = true;
    while (ok && g_stop == 0 && usecNow(CLOCK_MONOTONIC) < until &&
           (stop_file == nullptr || access(stop_file, F_OK) != 0)) {
        const unsigned long long now = usecNow(CLOCK_REALTIME);
        for (unsigned long long i = 0; i < per_tick && ok; ++i) {
            ++n;
            int prio = 6;
            // The device dev_printk printed a line about, as journald records it.
            char origin[96] = "";
            if (n % 200 == 0) {
                const auto& pci = pcis[(n / (rate * 8)) % pcis.size()];
                (void)std::snprintf(msg, sizeof msg, kClassified[n / 200 % 4], pci.c_str());
                (void)std::snprintf(origin, sizeof origin,
                                    "_KERNEL_DEVICE=+pci:%s\n_KERNEL_SUBSYSTEM=pci\n", pci.c_str());
                prio = 3;
            } else {
                (void)std::snprintf(msg, sizeof msg, kNoise[n % 8], n, n % 97, i);
                if (std::strncmp(msg, "mlx5_core 0000:", 15) == 0)
                    (void)std::snprintf(origin, sizeof origin,
                                        "_KERNEL_DEVICE=+pci:%.12s\n_KERNEL_SUBSYSTEM=pci\n",
                                        msg + 10);
            }
            // One boot's entries are ordered by monotonic time (as journal_writer.cpp does).
            ok =
                std::printf("__REALTIME_TIMESTAMP=%llu\n__MONOTONIC_TIMESTAMP=%llu\n_BOOT_ID=%s\n"
                            "_TRANSPORT=kernel\n_MACHINE_ID=0123456789abcdef0123456789abcdef\n"
                            "_HOSTNAME=simnode\n%sPRIORITY=%d\nMESSAGE=%s\n\n",
                            now + i, now + i - boot_offset, boot_id.c_str(), origin, prio, msg) > 0;
        }
        ok = ok && std::fflush(stdout) == 0;
        next += 100000;
        const unsigned long long t = usecNow(CLOCK_MONOTONIC);
        if (next > t) {
            timespec d{static_cast<time_t>((next - t) / 1000000ULL),
                       static_cast<long>((next - t) % 1000000ULL * 1000ULL)};
            nanosleep(&d, nullptr);
        }
    }
    (void)std::fprintf(stderr, "%llu\n", n);
    return 0;
}
