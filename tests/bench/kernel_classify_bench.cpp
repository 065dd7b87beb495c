// Kernel-line classification throughput on one core: the real fixture lines mixed with ordinary
// kernel noise (most lines of a real log are not NIC errors), 2 million lines.
#include "kernel_patterns.hpp"
#include "support/kernel_records.hpp"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

int main()
{
    std::vector<std::string> lines;
    std::ifstream in(std::string(NICD_SHARED_DIR) + "/fixtures/kernel-log-lines.txt");
    std::string l;
    while (std::getline(in, l))
        if (!l.empty() && l[0] != '#')
            lines.push_back(l);
    const char* noise[] = {
        "EXT4-fs (nvme0n1p2): re-mounted. Opts: errors=remount-ro. Quota mode: none.",
        "audit: type=1400 audit(1700000000.123:45): apparmor=\"STATUS\" operation=\"profile_load\"",
        "nvidia-nvlink: Nvlink Core is being initialized, major device number 234",
        "IPv4: martian source 10.0.0.1 from 10.0.0.2, on dev eth0",
        "systemd-journald[412]: Received client request to flush runtime journal.",
        "NVRM: loading NVIDIA UNIX x86_64 Kernel Module  535.104.05",
        "perf: interrupt took too long (2503 > 2500), lowering kernel.perf_event_max_sample_rate",
        "TCP: request_sock_TCP: Possible SYN flooding on port 22. Sending cookies.",
        "usb 1-1: new high-speed USB device number 2 using xhci_hcd",
    };
    std::vector<nicd::test::LoggedLine> mix;
    for (int r = 0; r < 10; ++r)
        for (const auto& n : noise)
            mix.push_back(nicd::test::logged(n));
    for (const auto& f : lines) // ~40% NIC lines: harsher than a real log
        mix.push_back(nicd::test::logged(f));
    const size_t total = 2'000'000;
    size_t hits = 0;
    auto t0 = std::chrono::steady_clock::now();
    for (size_t i = 0; i < total; ++i) {
        nicd::plugin::v1::KernelLineMatch m;
        hits += nicd::mlx5::classifyKernelRecord(mix[i % mix.size()].record(), m) ? 1 : 0;
    }
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    double rate = static_cast<double>(total) / s;
    std::printf("kernel line classification: %.0f lines/s on one core (%zu matched of %zu; target "
                ">= 200000): %s\n",
                rate, hits, total, rate >= 200000 ? "met" : "NOT met");
    return 0;
}
