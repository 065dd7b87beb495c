// `nicd-sim capture DIR`: snapshots what nicd reads on a node into DIR, a node that
// `nicd --root DIR` replays unchanged (and `nicd-sim run DIR` plays the samples of). Read-only on
// the node; a source it cannot read is noted in the manifest and skipped, never fatal.
//
// Two kinds of source, one walk: the sysfs tree, /proc and /etc files and the journal are read the
// same way from `/` (a real node) and from `--root SRC` (a simulated node, or another capture);
// the outputs of the tools the simulator stands in for come from the kernel through nicd's own
// readers on `/`, and from SRC's run/nicd-sim/ files, copied as they are, under --root
// (tool_outputs.hpp).
#pragma once

#include "capture/manifest.hpp"
#include "capture/sysfs_walk.hpp"

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

namespace nicd::sim::capture {

struct CaptureOptions {
    std::filesystem::path source = "/"; // --root
    std::vector<std::string> devices;   // --devices: empty = every RDMA device
    int samples = 1;                    // --samples: counter snapshots
    int interval_ms = 1000;             // --interval-ms between them
    bool keep_identifiers = false;      // --keep-identifiers
    bool tar = false;                   // --tar: also DIR.tar.gz
    std::chrono::milliseconds counter_deadline = kCounterDeadline;
};

inline constexpr int kMaxSamples = 1000;

struct CaptureResult {
    std::filesystem::path dir;
    std::filesystem::path tarball; // empty without --tar
    Manifest manifest;
};

// DIR must not exist, or be an empty directory. Throws SimError on what makes a capture
// impossible (DIR in the way, an unknown --devices name, a source that is not a directory, a
// write that fails); nothing is left behind then.
CaptureResult capture(const std::filesystem::path& dir, const CaptureOptions& options);

} // namespace nicd::sim::capture
