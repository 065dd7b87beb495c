// File access inside a simulated node: atomic replacement (as sysfs never shows a half-written
// value), relative symlinks (as the kernel makes them), and the `ethtool -S` text format.
#pragma once

#include "sim.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace nicd::sim {

fs::path simDir(const fs::path& root); // DIR/run/nicd-sim

// Writes `text` to `file` (under `root`) by staging it in DIR/run/nicd-sim/tmp and renaming it
// into place, so no temporary name ever shows up in a sysfs directory listing; a file that exists
// keeps its mode. Never outside the node, nor through a symlink at the file (beneath.hpp's
// BeneathWriter).
void writeText(const fs::path& root, const fs::path& file, std::string_view text);
void writeNumber(const fs::path& root, const fs::path& file, uint64_t value); // "<value>\n"
// The whole of a regular file; throws SimError naming it otherwise. Never blocks on a FIFO (a
// stalled counter, or a state file a tree from elsewhere made one): it is refused at once.
std::string readText(const fs::path& file);
uint64_t readNumber(const fs::path& file); // throws SimError naming the file when not a number

// `link` -> `target`, as a path relative to the link's directory (../../devices/...).
void relativeSymlink(const fs::path& target, const fs::path& link);

using EthtoolStats = std::vector<std::pair<std::string, uint64_t>>; // in file order

std::string formatEthtool(const EthtoolStats& stats); // "NIC statistics:\n     name: value\n..."
EthtoolStats parseEthtool(std::string_view text);
fs::path ethtoolFile(const fs::path& root, const std::string& netdev);
EthtoolStats readEthtool(const fs::path& root, const std::string& netdev);
void writeEthtool(const fs::path& root, const std::string& netdev, const EthtoolStats& stats);

} // namespace nicd::sim
