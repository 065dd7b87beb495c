#include "paths/beneath.hpp"

#include <nicd/plugin/sdk/small_file.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>

namespace nicd::plugin::sdk {

namespace fs = std::filesystem;

v1::Status ioFailure(const fs::path& path, int err)
{
    v1::Errc code = err == ENOENT || err == ENODEV  ? v1::Errc::NoDevice
                    : err == EACCES || err == EPERM ? v1::Errc::PermissionDenied
                                                    : v1::Errc::Io;
    return v1::Status::fail(code, path.string() + ": " + std::strerror(err), err);
}

namespace {

// One read of the attribute open as `fd` (closed here), a regular file only.
v1::Status readOpened(int fd, const fs::path& path, std::string& out)
{
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        int err = errno;
        ::close(fd);
        return ioFailure(path, err);
    }
    if (!S_ISREG(st.st_mode)) {
        ::close(fd);
        return v1::Status::fail(v1::Errc::Io, path.string() + ": not a regular file");
    }
    char buf[4096];
    ssize_t n = ::read(fd, buf, sizeof buf);
    int err = errno;
    ::close(fd);
    if (n < 0)
        return ioFailure(path, err);
    out.assign(buf, static_cast<size_t>(n));
    return v1::Status::ok();
}

} // namespace

v1::Status readSmallFile(const fs::path& path, std::string& out)
{
    // Never waited on: a FIFO planted in a debugfs or --root tree would block the read.
    int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return ioFailure(path, errno);
    return readOpened(fd, path, out);
}

v1::Status readSmallFileBeneath(const fs::path& root, const fs::path& path, std::string& out)
{
    if (root == "/")
        return readSmallFile(path, out);
    const auto rel = path.lexically_relative(root);
    if (rel.empty() || *rel.begin() == "..")
        return v1::Status::fail(v1::Errc::Io, path.string() + ": not beneath " + root.string());
    int top = ::open(root.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (top < 0)
        return ioFailure(root, errno);
    int fd = paths::openBeneath(top, rel.string(), O_RDONLY | O_NONBLOCK, paths::Links::Beneath);
    int err = errno;
    ::close(top);
    if (fd < 0)
        return err == EXDEV || err == ELOOP
                   ? v1::Status::fail(v1::Errc::Io,
                                      path.string() + ": a symlink on the way leads out of " +
                                          root.string(),
                                      err)
                   : ioFailure(path, err);
    return readOpened(fd, path, out);
}

v1::Status readRegularFile(const fs::path& path, size_t limit, std::string& out, Fifo fifo)
{
    return readRegularFileAt(AT_FDCWD, path.c_str(), path, limit, out, fifo);
}

v1::Status readRegularFileAt(int dir, const char* name, const fs::path& path, size_t limit,
                             std::string& out, Fifo fifo)
{
    out.clear();
    int fd = ::openat(dir, name,
                      O_RDONLY | O_NOFOLLOW | O_CLOEXEC | (fifo == Fifo::Refuse ? O_NONBLOCK : 0));
    if (fd < 0)
        return ioFailure(path, errno);
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        int err = errno;
        ::close(fd);
        return ioFailure(path, err);
    }
    if (!S_ISREG(st.st_mode) && !(fifo == Fifo::Wait && S_ISFIFO(st.st_mode))) {
        ::close(fd);
        return v1::Status::fail(v1::Errc::Io, path.string() + ": not a regular file");
    }
    // One byte past the limit tells a file that is too large from one that fills it exactly. The
    // buffer starts at the file's size (a page for sysfs, which says 4096) and grows as the read
    // does: a limit of 64 MiB is not 64 MiB touched for a state file of a few hundred KiB.
    const size_t want = limit + 1;
    const size_t start = st.st_size > 0 ? static_cast<size_t>(st.st_size) + 1 : size_t{4096};
    std::string text(std::min(want, std::max(start, size_t{4096})), '\0');
    size_t got = 0;
    while (got < want) {
        if (got == text.size())
            text.resize(std::min(want, text.size() * 2));
        ssize_t n = ::read(fd, text.data() + got, text.size() - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            int err = errno;
            ::close(fd);
            return ioFailure(path, err);
        }
        if (n == 0)
            break;
        got += static_cast<size_t>(n);
    }
    ::close(fd);
    if (got > limit)
        return v1::Status::fail(v1::Errc::Io,
                                path.string() + ": larger than " + std::to_string(limit) + " bytes",
                                EFBIG);
    text.resize(got);
    out = std::move(text);
    return v1::Status::ok();
}

// One write(2) of the whole text, as `echo N > file` does: sysfs and configfs parse each write.
v1::Status writeSmallFile(const fs::path& path, const std::string& text, bool create)
{
    int flags = O_WRONLY | O_TRUNC | O_NOFOLLOW | O_CLOEXEC | (create ? O_CREAT : 0);
    int fd = ::open(path.c_str(), flags, 0644);
    if (fd < 0)
        return ioFailure(path, errno);
    ssize_t n = ::write(fd, text.data(), text.size());
    int err = errno;
    if (::close(fd) != 0 && n >= 0) {
        err = errno;
        n = -1;
    }
    if (n < 0)
        return ioFailure(path, err);
    if (static_cast<size_t>(n) != text.size())
        return v1::Status::fail(v1::Errc::Io, path.string() + ": short write");
    return v1::Status::ok();
}

std::string_view trimSpace(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\n'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\n'))
        s.remove_suffix(1);
    return s;
}

std::optional<long> parseLong(std::string_view s)
{
    long v = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size())
        return std::nullopt;
    return v;
}

v1::IHost* knobHost(v1::IHost& host)
{
    return host.abiMinor() >= 4 ? &host : nullptr;
}

v1::Status writeKnob(v1::IHost* knobs, const fs::path& path, const std::string& text)
{
    return knobs ? knobs->writeKnob(path.string(), text) : writeSmallFile(path, text, false);
}

} // namespace nicd::plugin::sdk
