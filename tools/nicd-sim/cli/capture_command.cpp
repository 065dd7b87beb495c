// nicd-sim capture DIR [--root SRC] [--devices D,...] [--samples N --interval-ms M]
//                      [--timeout S] [--keep-identifiers] [--tar]
#include "capture/capture.hpp"
#include "cli/registry.hpp"

#include <fmt/format.h>

#include <cstdio>

namespace nicd::sim::cli {

namespace {

void report(const capture::CaptureResult& r)
{
    const auto& m = r.manifest;
    std::printf("captured %zu RDMA devices, %zu netdevs, %d sample(s), %zu kernel lines into %s "
                "in %.2f s; identifiers %s\n",
                m.devices.size(), m.netdevs.size(), m.samples, m.kernel_lines, r.dir.c_str(),
                m.duration_s, m.scrubbed ? "scrubbed" : "kept");
    if (!r.moved.empty())
        std::printf("%s: the capture is in %s instead\n", r.moved.c_str(), r.dir.c_str());
    if (!m.timed_out.empty())
        std::printf("%zu RDMA device(s) stopped answering and were given up on after %ld ms: see "
                    "the manifest\n",
                    m.timed_out.size(), m.timeout_ms);
    if (!m.skipped.empty())
        std::printf("skipped %zu source(s): see %s/%s\n", m.skipped.size(), r.dir.c_str(),
                    capture::kManifestFile);
    if (!r.tarball.empty())
        std::printf("tarball: %s\n", r.tarball.c_str());
}

} // namespace

// NOLINTNEXTLINE(cert-err58-cpp): registered before main; a failure there is fatal anyway
NICD_SIM_COMMAND(
    capture, "capture",
    "snapshot what nicd reads on this node (or --root SRC) into DIR, for nicd --root DIR",
    [](CLI::App& cmd) {
        auto o = std::make_shared<capture::CaptureOptions>();
        cmd.add_option("--root", o->source,
                       "capture the node under SRC instead of / (a simulated node, or a real "
                       "node's files: then only what sysfs, /proc, /etc and the journal hold)")
            ->check(CLI::ExistingDirectory);
        cmd.add_option("--devices", o->devices, "only these RDMA devices (comma-separated)")
            ->delimiter(',');
        cmd.add_option(
               "--samples", o->samples,
               fmt::format("capture the counters N times (1..{}, default 1)", capture::kMaxSamples))
            ->check(CLI::Range(1, capture::kMaxSamples));
        cmd.add_option("--interval-ms", o->interval_ms,
                       "time between samples (10..3600000, default 1000)")
            ->check(CLI::Range(10, 3600000));
        cmd.add_option_function<double>(
               "--timeout",
               [o](double s) {
                   o->timeout = std::chrono::milliseconds(static_cast<long>(s * 1000));
               },
               fmt::format("seconds one device's reads may take (its walk, then each sample's) "
                           "before it is given up on (0.1..{}, default {})",
                           capture::kMaxTimeout.count() / 1000,
                           capture::kDefaultDeviceTimeout.count() / 1000))
            ->check(CLI::Range(0.1, static_cast<double>(capture::kMaxTimeout.count()) / 1000));
        cmd.add_flag("--keep-identifiers", o->keep_identifiers,
                     "keep hostnames, IP and MAC addresses, GUIDs and serial numbers (default: "
                     "replaced)");
        cmd.add_flag("--tar", o->tar, "also write DIR.tar.gz");
        return [o](const fs::path& dir) { report(capture::capture(dir, *o)); };
    },
    50);

} // namespace nicd::sim::cli
