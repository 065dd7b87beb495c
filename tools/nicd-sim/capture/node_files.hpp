// Reading a node's files for a capture, read-only and failing soft: a file is read whole (up to a
// limit); what it is is asked before anything is opened, so a FIFO (a stalled simulated device)
// is reported as one without being opened and a device node, socket or directory is never opened
// at all (opening /dev/watchdog would arm it). Reads that may block in the kernel run under a
// deadline elsewhere (deadline_job.hpp).
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace nicd::sim::capture {

namespace fs = std::filesystem;

struct NodeRead {
    enum class Status { Ok, Fifo, Missing, Error };
    Status status = Status::Missing;
    std::string data;  // Ok: the bytes
    std::string error; // Error: strerror or why, naming nothing (the caller knows the path)
    int err = 0;       // Error: the errno, when there was one
};

inline constexpr size_t kMaxNodeFile = 1 << 20;

// Follows symlinks to the file, asks what it is (O_PATH, fstat) and opens only a regular file;
// a FIFO is reported without being opened.
NodeRead readNodeFile(const fs::path& file, size_t limit = kMaxNodeFile);

// How a capture reads one file: readNodeFile, or a test's stand-in (a read that never answers).
using FileReader = std::function<NodeRead(const fs::path&)>;

// Names in `dir`, sorted; empty when it cannot be listed.
std::vector<std::string> listDir(const fs::path& dir);

} // namespace nicd::sim::capture
