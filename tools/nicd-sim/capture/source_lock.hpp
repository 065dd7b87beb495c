// While a simulated source is read, a shared flock on its run/nicd-sim/lock, so that a
// `nicd-sim run` on it (which locks it exclusively) never changes a file half way through a
// sample. Read-only like the rest of a capture: the lock file is opened O_RDONLY when it is
// there and never created (without one, no nicd-sim command has run there to need it), so a
// source on a read-only mount captures as well.
#pragma once

#include <filesystem>

namespace nicd::sim::capture {

class SourceLock {
public:
    explicit SourceLock(const std::filesystem::path& src);
    ~SourceLock();
    SourceLock(const SourceLock&) = delete;
    SourceLock& operator=(const SourceLock&) = delete;

private:
    int fd_ = -1;
};

} // namespace nicd::sim::capture
