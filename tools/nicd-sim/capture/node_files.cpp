#include "capture/node_files.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <string>

namespace nicd::sim::capture {

namespace {

class Fd {
public:
    explicit Fd(int fd) : fd_(fd) {}
    ~Fd()
    {
        if (fd_ >= 0)
            ::close(fd_);
    }
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    int get() const { return fd_; }

private:
    int fd_;
};

NodeRead failure(int err)
{
    NodeRead r;
    r.status =
        err == ENOENT || err == ENOTDIR ? NodeRead::Status::Missing : NodeRead::Status::Error;
    r.error = std::strerror(err);
    r.err = err;
    return r;
}

// The regular file `path` resolved to (`location`, an O_PATH descriptor of it), opened for
// reading: through /proc/self/fd, so that it is the very inode fstat looked at; where /proc is
// not mounted, by its path again, checked to be the same inode.
int openChecked(const fs::path& path, int location, const struct stat& st)
{
    const auto via = "/proc/self/fd/" + std::to_string(location);
    int fd = ::open(via.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY);
    if (fd >= 0 || errno != ENOENT)
        return fd;
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (fd < 0)
        return fd;
    struct stat again {};
    if (::fstat(fd, &again) != 0 || again.st_dev != st.st_dev || again.st_ino != st.st_ino) {
        ::close(fd);
        errno = EAGAIN; // replaced meanwhile
        return -1;
    }
    return fd;
}

} // namespace

NodeRead readNodeFile(const fs::path& file, size_t limit)
{
    Fd location(::open(file.c_str(), O_PATH | O_CLOEXEC));
    if (location.get() < 0)
        return failure(errno);
    struct stat st {};
    if (::fstat(location.get(), &st) != 0)
        return failure(errno);
    NodeRead r;
    if (S_ISFIFO(st.st_mode)) {
        r.status = NodeRead::Status::Fifo;
        return r;
    }
    if (!S_ISREG(st.st_mode)) {
        r.status = NodeRead::Status::Error;
        r.error = "not a regular file";
        return r;
    }
    Fd fd(openChecked(file, location.get(), st));
    if (fd.get() < 0)
        return failure(errno);
    // Sysfs attributes are a few bytes: read into a small buffer, grow only for larger files.
    std::string data;
    std::array<char, 4096> buf{};
    while (data.size() <= limit) {
        ssize_t n = ::read(fd.get(), buf.data(), buf.size());
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return failure(errno);
        if (n == 0)
            break;
        data.append(buf.data(), static_cast<size_t>(n));
    }
    if (data.size() > limit) {
        r.status = NodeRead::Status::Error;
        r.error = "larger than " + std::to_string(limit) + " bytes";
        return r;
    }
    r.status = NodeRead::Status::Ok;
    r.data = std::move(data);
    return r;
}

std::vector<std::string> listDir(const fs::path& dir)
{
    std::vector<std::string> out;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        out.push_back(it->path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace nicd::sim::capture
