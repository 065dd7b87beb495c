#include "qos/small_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace nicd::mlx5 {

namespace fs = std::filesystem;

pv1::Status ioFailure(const fs::path& path, int err)
{
    pv1::Errc code = err == ENOENT || err == ENODEV  ? pv1::Errc::NoDevice
                     : err == EACCES || err == EPERM ? pv1::Errc::PermissionDenied
                                                     : pv1::Errc::Io;
    return pv1::Status::fail(code, path.string() + ": " + std::strerror(err), err);
}

pv1::Status readSmallFile(const fs::path& path, std::string& out)
{
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return ioFailure(path, errno);
    char buf[4096];
    ssize_t n = ::read(fd, buf, sizeof buf);
    int err = errno;
    ::close(fd);
    if (n < 0)
        return ioFailure(path, err);
    out.assign(buf, static_cast<size_t>(n));
    return pv1::Status::ok();
}

// One write(2) of the whole text, as `echo N > file` does: sysfs and configfs parse each write.
pv1::Status writeSmallFile(const fs::path& path, const std::string& text, bool create)
{
    int flags = O_WRONLY | O_TRUNC | O_CLOEXEC | (create ? O_CREAT : 0);
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
        return pv1::Status::fail(pv1::Errc::Io, path.string() + ": short write");
    return pv1::Status::ok();
}

pv1::IHost* knobHost(pv1::IHost& host)
{
    return host.abiMinor() >= 4 ? &host : nullptr;
}

pv1::Status writeKnob(pv1::IHost* knobs, const fs::path& path, const std::string& text)
{
    return knobs ? knobs->writeKnob(path.string(), text) : writeSmallFile(path, text, false);
}

} // namespace nicd::mlx5
