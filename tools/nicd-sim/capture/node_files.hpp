// Reading a node's files for a capture, read-only and failing soft: a file is read whole (up to a
// limit) through a descriptor opened beneath the node's root without following a symlink
// (paths/beneath.hpp: openat2 RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS, or a walk with O_NOFOLLOW),
// with the source "/" as with any other: a symlink where a file is expected is reported as one,
// with its target, and never read through (sysfs's own links are recorded as links; one planted
// in a writable place cannot bring a file from elsewhere into the capture). What a file is is
// asked before anything is opened, so a FIFO (a stalled simulated device) is reported as one
// without being opened and a device node, socket or directory is never opened at all (opening
// /dev/watchdog would arm it). Reads that may block in the kernel run under a deadline elsewhere
// (deadline_job.hpp).
#pragma once

#include "paths/fd.hpp"

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace nicd::sim::capture {

namespace fs = std::filesystem;

struct NodeRead {
    enum class Status { Ok, Fifo, Symlink, Missing, Error };
    Status status = Status::Missing;
    std::string data;  // Ok: the bytes; Symlink: its target
    std::string error; // Error: strerror or why, naming nothing (the caller knows the path)
    int err = 0;       // Error: the errno, when there was one
};

inline constexpr size_t kMaxNodeFile = 1 << 20;

// The node's root directory, opened once; paths below are given as root / rel (or relative).
class NodeRoot {
public:
    explicit NodeRoot(const fs::path& root); // throws SimError when it cannot be opened

    const fs::path& path() const { return path_; }
    // `p` relative to the root ("" for the root itself).
    std::string rel(const fs::path& p) const;

    // The file at `p`; a symlink there is Status::Symlink (its target), one on the way an Error.
    NodeRead read(const fs::path& p, size_t limit = kMaxNodeFile) const;
    // The target of the symlink at `p`; nullopt when there is none (or it cannot be read).
    std::optional<std::string> link(const fs::path& p) const;
    // Names in the directory `p` (not through a symlink), sorted; empty when it cannot be listed.
    std::vector<std::string> list(const fs::path& p) const;
    bool isDirectory(const fs::path& p) const;

private:
    fs::path path_;
    paths::Fd fd_;
};

// How a capture reads one file (a path under the source's root): NodeRoot::read, or a test's
// stand-in (a read that never answers).
using FileReader = std::function<NodeRead(const fs::path&)>;

} // namespace nicd::sim::capture
