// Writing a capture: the tree into a directory, and the directory into a tarball.
#pragma once

#include "capture/capture_tree.hpp"

#include <ctime>
#include <filesystem>
#include <string>

namespace nicd::sim::capture {

// Writes every entry under `dir` (created; it must not exist): files 0644, FIFOs 0444, symlinks
// with their recorded targets, directories 0755. Throws SimError naming the path on failure.
void writeTree(const CaptureTree& tree, const std::filesystem::path& dir);

// `tarball` (.tar.gz) of `dir`, whose top-level folder is dir's name: the system tar and gzip
// (both essential on Debian), deterministic (sorted names, owner 0, every mtime `mtime`). Empty
// on success, else why not.
std::string writeTarball(const std::filesystem::path& dir, const std::filesystem::path& tarball,
                         std::time_t mtime);

} // namespace nicd::sim::capture
