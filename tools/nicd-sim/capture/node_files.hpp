// Reading a node's files for a capture, read-only and failing soft: a file is read whole (up to a
// limit), a FIFO is reported as one without being opened (a stalled simulated device), and the
// files of a directory that may block (counters/: a firmware command per read) are read by a
// worker under a deadline; those it did not reach in time are reported as timed out, and the
// capture makes them FIFOs, so that the replay blocks where the node did.
#pragma once

#include <chrono>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace nicd::sim::capture {

namespace fs = std::filesystem;

struct NodeRead {
    enum class Status { Ok, Fifo, Missing, Error, TimedOut };
    Status status = Status::Missing;
    std::string data;  // Ok: the bytes
    std::string error; // Error: strerror, naming nothing (the caller knows the path)
};

inline constexpr size_t kMaxNodeFile = 1 << 20;

// Never blocks on a FIFO (lstat first); a symlink is followed.
NodeRead readNodeFile(const fs::path& file, size_t limit = kMaxNodeFile);

// The files in order, each as readNodeFile reads it, read one after the other by a worker thread;
// the ones not read when `deadline` passes are TimedOut (the worker is left behind, blocked).
using FileReader = std::function<NodeRead(const fs::path&)>;
std::vector<NodeRead> readWithDeadline(
    const std::vector<fs::path>& files, std::chrono::milliseconds deadline,
    FileReader read = [](const fs::path& f) { return readNodeFile(f); });

// Names in `dir`, sorted; empty when it cannot be listed.
std::vector<std::string> listDir(const fs::path& dir);

} // namespace nicd::sim::capture
