// Writing a capture: the tree into a directory, and the directory into a tarball.
#pragma once

#include "capture/capture_tree.hpp"

#include <ctime>
#include <filesystem>
#include <string>

namespace nicd::sim::capture {

// Writes every entry into `dir`, an empty directory of ours (mode 0700: the capture's top, which
// keeps everything below it private): directories 0755, files 0644, FIFOs 0444, symlinks with
// their recorded targets. Nothing is written outside `dir`: an entry's path must be relative with
// no "." or ".." component, and no symlink is followed on the way (one in the way is an error).
// Throws SimError naming the path on failure.
void writeTree(const CaptureTree& tree, const std::filesystem::path& dir);

// `tarball` (.tar.gz) of `dir`, whose top-level folder is dir's name: the system tar and gzip
// (both essential on Debian), deterministic (sorted names, owner 0, every mtime `mtime`).
// Created 0600, new (O_EXCL, not through a symlink): an existing file is never replaced. Empty on
// success, else why not (and no file left behind).
std::string writeTarball(const std::filesystem::path& dir, const std::filesystem::path& tarball,
                         std::time_t mtime);

} // namespace nicd::sim::capture
