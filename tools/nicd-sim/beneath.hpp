// Writing inside a directory tree that may hold symlinks someone else made (a capture from
// another machine, a tree being built): every component of a path is opened without following a
// symlink, so nothing is created or replaced outside the tree, whatever its links say.
#pragma once

#include "sim.hpp"

#include <sys/types.h>

#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace nicd::sim {

// The components of a relative path; nullopt when it is absolute or empty, or has an empty, "."
// or ".." component (no path of a tree's own needs one).
std::optional<std::vector<std::string>> plainComponents(std::string_view rel);

class DirFd {
public:
    DirFd() = default;
    explicit DirFd(int fd) : fd_(fd) {}
    ~DirFd();
    DirFd(DirFd&& o) noexcept : fd_(o.fd_) { o.fd_ = -1; }
    DirFd& operator=(DirFd&& o) noexcept;
    DirFd(const DirFd&) = delete;
    DirFd& operator=(const DirFd&) = delete;
    int get() const { return fd_; }

private:
    int fd_ = -1;
};

// The directory `dir` itself (following links: the caller names it), or throws SimError.
DirFd openDir(const fs::path& dir);

// The directory made of `components` under the directory `parent`, no component followed if it
// is a symlink; with `create`, missing ones are made with `mode`. Throws SimError naming
// `shown` (the path as the user knows it).
DirFd openDirBeneath(int parent, std::span<const std::string> components, bool create, mode_t mode,
                     const fs::path& shown);

// Replaces files inside `root` (a node) by renaming a staged one (from root/run/nicd-sim/tmp)
// into place: a reader never sees one half written, and no symlink in the tree is followed,
// neither on the way to the file nor the file itself (a symlink there is replaced, not written
// through). Throws SimError naming the file.
class BeneathWriter {
public:
    explicit BeneathWriter(const fs::path& root);

    void replace(std::string_view rel, std::string_view content);
    void replaceWithFifo(std::string_view rel); // a blocking read, as nicd-sim stall makes

private:
    std::pair<int, std::string> parentOf(std::string_view rel);
    std::string stage(bool fifo, std::string_view content);
    void renameIntoPlace(const std::string& staged, std::string_view rel);

    fs::path root_;
    DirFd root_fd_;
    DirFd tmp_fd_;
    std::map<std::string, DirFd> dirs_; // parent directories opened so far
};

} // namespace nicd::sim
