#include <nicd/plugin/sdk/netdev_stats.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace nicd::plugin::sdk {

namespace pv1 = ::nicd::plugin::v1;

namespace {

// A real 64-ring ConnectX-7 `ethtool -S` is about 7,000 lines (a few hundred KiB): a file past
// this is not the simulator's capture, and must not grow the poll's buffer without bound.
constexpr size_t kMaxSimStatsFile = size_t{4} * 1024 * 1024;

pv1::Status failure(const std::string& path, int err)
{
    if (err == ENOENT)
        return pv1::Status::fail(pv1::Errc::NotSupported, path + ": no simulated statistics", err);
    return pv1::Status::fail(pv1::Errc::Io, path + ": " + std::strerror(err), err);
}

} // namespace

SimStatsFile::~SimStatsFile()
{
    close();
}

void SimStatsFile::close()
{
    if (fd_ >= 0)
        ::close(fd_);
    fd_ = -1;
}

pv1::Status SimStatsFile::read(std::string& buf, std::string_view& text)
{
    struct stat st {};
    if (fd_ >= 0 && (::fstat(fd_, &st) != 0 || st.st_nlink == 0))
        close(); // replaced (or gone): the path holds the current one
    if (fd_ < 0) {
        // A --root tree is not root's own: a link in the file's place is refused, not followed,
        // and a FIFO there must not block the poll.
        fd_ = ::open(path_.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
        if (fd_ < 0)
            return failure(path_, errno);
        if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) {
            close();
            return pv1::Status::fail(pv1::Errc::Io, path_ + ": not a regular file");
        }
    }
    if (buf.empty())
        buf.resize(8192);
    for (;;) {
        ssize_t n = ::pread(fd_, buf.data(), buf.size(), 0);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            int err = errno;
            close();
            return failure(path_, err);
        }
        if (static_cast<size_t>(n) < buf.size()) {
            text = std::string_view(buf.data(), static_cast<size_t>(n));
            return pv1::Status::ok();
        }
        // It filled the buffer: there may be more, up to the limit (one byte past it tells a
        // file that is too large from one that fills it exactly).
        if (buf.size() > kMaxSimStatsFile) {
            close();
            return pv1::Status::fail(
                pv1::Errc::Io,
                path_ + ": larger than " + std::to_string(kMaxSimStatsFile) + " bytes", EFBIG);
        }
        buf.resize(std::min(buf.size() * 2, kMaxSimStatsFile + 1));
    }
}

} // namespace nicd::plugin::sdk
