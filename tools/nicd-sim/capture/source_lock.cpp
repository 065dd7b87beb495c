#include "capture/source_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <string>

namespace nicd::sim::capture {

SourceLock::SourceLock(const std::filesystem::path& src)
{
    const auto lock = src / "run/nicd-sim/lock";
    // A regular file only (never a device node another tree put there), opened as the very inode.
    int location = ::open(lock.c_str(), O_PATH | O_NOFOLLOW | O_CLOEXEC);
    if (location < 0)
        return;
    struct stat st {};
    if (::fstat(location, &st) == 0 && S_ISREG(st.st_mode)) {
        const auto via = "/proc/self/fd/" + std::to_string(location);
        fd_ = ::open(via.c_str(), O_RDONLY | O_CLOEXEC);
    }
    ::close(location);
    if (fd_ < 0)
        return;
    while (::flock(fd_, LOCK_SH) != 0 && errno == EINTR) {
    }
}

SourceLock::~SourceLock()
{
    if (fd_ >= 0)
        ::close(fd_);
}

} // namespace nicd::sim::capture
