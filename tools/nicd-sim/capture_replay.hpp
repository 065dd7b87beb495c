// A node made by `nicd-sim capture` (tools/nicd-sim/capture/) is a simulated node like any other
// (state.json is made from what was captured), plus what the capture recorded:
//
//   DIR/run/nicd-sim/capture/manifest.json      what was captured, when, what was skipped
//   DIR/run/nicd-sim/capture/samples/NNNN.json  sample N (from 0001, which the tree holds at
//                                               first): {"offset_s": seconds after sample 1,
//                                               "files": {"<path under DIR>": "<content>"},
//                                               "fifos": ["<path under DIR>", ...]}: sample 1
//                                               has every counter file (counters/,
//                                               hw_counters/), ethtool statistics and FEC
//                                               capture, "fifos" those that did not answer
//                                               (absent when none); a later one what changed
//                                               since the sample before it (so they play in
//                                               order)
//   DIR/run/nicd-sim/capture/position           the sample the tree holds now ("2\n")
//
// `nicd-sim run DIR` on a capture plays the samples instead of ticking: each one after the one
// in place, at its recorded distance from the one before (or --interval-ms apart), until the last,
// which stays; when the last is already in place it starts over from sample 1 (written at once).
// A capture may come from anywhere: a sample may only name the counter files of the devices the
// node's state lists (<ib_dir>/ports/<n>/counters/<name>, .../hw_counters/<name>) and
// run/nicd-sim/ethtool/<netdev> or ethtool-fec/<netdev>, and is written without following any
// symlink of the tree (beneath.hpp). This file is the simulator's side (independent of nicd,
// like the rest of its library).
#pragma once

#include "sim.hpp"

#include <atomic>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace nicd::sim {

struct NodeState;

inline constexpr const char* kCaptureDir = "run/nicd-sim/capture";

struct CaptureSample {
    double offset_s = 0;
    std::map<std::string, std::string> files; // path under DIR -> content
    std::set<std::string> fifos;              // paths under DIR whose reads block
};

bool isCapture(const fs::path& root);
// "run/nicd-sim/capture/samples/0003.json" for index 3 (from 1).
std::string samplePath(size_t index);
std::string formatSample(const CaptureSample& s);
CaptureSample parseSample(const std::string& text, const std::string& where); // throws SimError

// Which paths a sample may write in a node whose state is `state` (see above).
class SamplePaths {
public:
    explicit SamplePaths(const NodeState& state);
    bool allowed(const std::string& rel) const;

private:
    std::set<std::string> ib_dirs_;
};
// The number of samples a capture holds (0 for a capture without any).
size_t sampleCount(const fs::path& root);

// Plays the capture's samples as described above; stops early after `count` samples (0: no
// limit) or when `stop` becomes true. `interval_ms` replaces the recorded spacing. Returns the
// number of samples written.
size_t playSamples(const fs::path& root, std::optional<int> interval_ms, int count,
                   const std::atomic<bool>& stop);

} // namespace nicd::sim
