// The capture's manifest, DIR/run/nicd-sim/capture/manifest.json: what was captured, when, by
// which nicd-sim, from what kind of node (capture.hpp), whether identifiers were scrubbed, the
// devices that stopped answering, the samples (each one's time: when its reads were half done,
// from sample 1's), the kernel lines, and every source that was skipped with why (a capture
// never fails for one).
//
//   {"format": 1, "nicd_sim_version": "0.1.0", "captured_at": "2026-01-02T03:04:05Z",
//    "source": "real node" | "real node's tree" | "simulated node",
//    "identifiers": "scrubbed" | "kept",
//    "devices": [...], "netdevs": [...], "gpus": [...],
//    "timeout_ms": 5000, "timed_out": ["mlx5_3"],
//    "samples": {"count": 3, "interval_ms": 1000, "offsets_s": [0, 1.0004, 2.0011]},
//    "kernel_lines": {"entries": 12, "export": "run/nicd-sim/capture/kernel.export",
//                     "journal": "var/log/journal/<id>/capture.journal" | null},
//    "said": ["run/nicd-sim/capture/said/nicd.prom", ...],
//    "skipped": [{"source": "fec", "item": "ens1f0np0", "why": "..."}, ...],
//    "unreadable": {"count": 2, "first": [{"path": "...", "why": "..."}]},
//    "duration_s": 0.42}
#pragma once

#include "capture_replay.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace nicd::sim::capture {

// What was captured (capture.hpp says how each is read).
enum class NodeKind {
    Real,      // "/": this machine
    RealTree,  // --root SRC without run/nicd-sim/state.json: a real node's files (/host in a pod)
    Simulated, // --root SRC with run/nicd-sim/state.json: nicd-sim create's node, or a capture
};

struct SkippedSource {
    std::string
        source;       // "fec", "module eeprom", "devlink health", "dcb", "ethtool", "journal", ...
    std::string item; // the netdev, device or file; empty for the whole source
    std::string why;
};

struct Manifest {
    std::string nicd_sim_version;
    std::string captured_at;
    NodeKind kind = NodeKind::Real;
    bool scrubbed = true;
    std::vector<std::string> devices, netdevs, gpus;
    long timeout_ms = 0;
    std::vector<std::string> timed_out; // devices that stopped answering
    int samples = 1;
    int interval_ms = 0;
    std::vector<double> sample_offsets{0.0};
    size_t kernel_lines = 0;
    std::string journal_file; // empty: not written (no systemd-journal-remote)
    std::vector<std::string> said;
    std::vector<SkippedSource> skipped;
    size_t unreadable_count = 0;
    std::vector<std::pair<std::string, std::string>> unreadable_first; // path, why
    double duration_s = 0;

    static constexpr size_t kUnreadableListed = 100;
    void skip(std::string source, std::string item, std::string why)
    {
        skipped.push_back({std::move(source), std::move(item), std::move(why)});
    }
    void unreadable(std::string path, std::string why)
    {
        if (unreadable_count++ < kUnreadableListed)
            unreadable_first.emplace_back(std::move(path), std::move(why));
    }

    std::string toJson() const;
};

inline constexpr const char* kManifestFile = "run/nicd-sim/capture/manifest.json";
inline constexpr const char* kKernelExportFile = "run/nicd-sim/capture/kernel.export";
inline constexpr const char* kSaidDir = "run/nicd-sim/capture/said";

} // namespace nicd::sim::capture
