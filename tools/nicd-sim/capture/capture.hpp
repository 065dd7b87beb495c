// `nicd-sim capture DIR`: snapshots what nicd reads on a node into DIR, a node that
// `nicd --root DIR` replays unchanged (and `nicd-sim run DIR` plays the samples of). Read-only on
// the node, the source tree included (a read-only mount captures): a source it cannot read is
// noted in the manifest and skipped, never fatal; a device that stops answering is given up on
// after --timeout (device_reads.hpp).
//
// What the source is (manifest.hpp's NodeKind) decides where the outputs of the tools the
// simulator stands in for (tool_outputs.hpp) come from; the sysfs tree, /proc and /etc files and
// the journal are read the same way from any of them:
//   /                                  a real node: from the kernel, through nicd's own readers;
//   --root SRC with run/nicd-sim/state.json   a simulated node (nicd-sim create, or a capture):
//                                      SRC's run/nicd-sim/ files, copied as they are;
//   --root SRC without it              a real node's tree (the host's / mounted in a pod): none,
//                                      noted (the kernel nicd-sim could ask may not be that
//                                      tree's; capture in the node's namespaces instead).
//
// The capture is private to whoever took it: DIR (renamed into place from a mkdtemp staging
// directory beside it) is 0700, the files below it keep ordinary modes (0644, directories 0755)
// so that an unpacked copy reads normally, and DIR.tar.gz is created 0600.
#pragma once

#include "capture/device_reads.hpp"
#include "capture/manifest.hpp"
#include "capture/node_files.hpp"

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
    std::chrono::milliseconds timeout = kDefaultDeviceTimeout; // --timeout: per device and read
    FileReader read_file; // how each file is read; empty: NodeRoot::read (tests stand in a wedge)
};

inline constexpr int kMaxSamples = 1000;

inline constexpr std::chrono::milliseconds kMaxTimeout{600000};

struct CaptureResult {
    std::filesystem::path dir;     // DIR, or beside it when DIR filled up meanwhile (`moved`)
    std::filesystem::path tarball; // empty without --tar
    std::string moved;             // why the capture is not in DIR; empty when it is
    Manifest manifest;
};

// DIR (trailing separators and "." allowed) must not exist, or be an empty directory; with --tar,
// DIR.tar.gz must not exist. Throws SimError on what makes a capture impossible (DIR or the
// tarball in the way, an unknown --devices name, a source that is not a directory, a write that
// fails); nothing is left behind then.
CaptureResult capture(const std::filesystem::path& dir, const CaptureOptions& options);

} // namespace nicd::sim::capture
