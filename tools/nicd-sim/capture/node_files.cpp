#include "capture/node_files.hpp"

#include "paths/beneath.hpp"
#include "sim.hpp"

#include <dirent.h>
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

NodeRead failure(int err)
{
    NodeRead r;
    r.status =
        err == ENOENT || err == ENOTDIR ? NodeRead::Status::Missing : NodeRead::Status::Error;
    r.error = err == ELOOP   ? "a symlink on the way (links are not followed)"
              : err == EXDEV ? "leads out of the node"
                             : std::strerror(err);
    r.err = err;
    return r;
}

std::optional<std::string> targetOf(int link)
{
    std::array<char, 4096> buf{};
    ssize_t n = ::readlinkat(link, "", buf.data(), buf.size());
    if (n <= 0 || static_cast<size_t>(n) >= buf.size())
        return std::nullopt;
    return std::string(buf.data(), static_cast<size_t>(n));
}

} // namespace

NodeRoot::NodeRoot(const fs::path& root)
    : path_(root), fd_(::open(root.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC))
{
    if (!fd_.valid())
        throw SimError("capture: cannot open the source " + root.string() + ": " +
                       std::strerror(errno));
}

std::string NodeRoot::rel(const fs::path& p) const
{
    if (p.is_relative())
        return p.string();
    auto r = p.lexically_relative(path_);
    return r == "." ? std::string() : r.string();
}

NodeRead NodeRoot::read(const fs::path& p, size_t limit) const
{
    const auto r = rel(p);
    paths::Fd location(paths::openBeneath(fd_.get(), r, O_PATH | O_NOFOLLOW, paths::Links::Refuse));
    if (!location.valid())
        return failure(errno);
    struct stat st {};
    if (::fstat(location.get(), &st) != 0)
        return failure(errno);
    NodeRead out;
    if (S_ISLNK(st.st_mode)) {
        auto target = targetOf(location.get());
        if (!target)
            return failure(errno ? errno : EINVAL);
        out.status = NodeRead::Status::Symlink;
        out.data = std::move(*target);
        return out;
    }
    if (S_ISFIFO(st.st_mode)) {
        out.status = NodeRead::Status::Fifo;
        return out;
    }
    if (!S_ISREG(st.st_mode)) {
        out.status = NodeRead::Status::Error;
        out.error = "not a regular file";
        return out;
    }
    // The very inode looked at, through /proc/self/fd; where /proc is not mounted, opened beneath
    // the root again and checked to be the same one.
    const auto via = "/proc/self/fd/" + std::to_string(location.get());
    paths::Fd fd(::open(via.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY));
    if (!fd.valid() && errno == ENOENT) {
        fd = paths::Fd(paths::openBeneath(
            fd_.get(), r, O_RDONLY | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK, paths::Links::Refuse));
        struct stat again {};
        if (fd.valid() && (::fstat(fd.get(), &again) != 0 || again.st_dev != st.st_dev ||
                           again.st_ino != st.st_ino)) {
            fd.reset();
            errno = EAGAIN; // replaced meanwhile
        }
    }
    if (!fd.valid())
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
        out.status = NodeRead::Status::Error;
        out.error = "larger than " + std::to_string(limit) + " bytes";
        return out;
    }
    out.status = NodeRead::Status::Ok;
    out.data = std::move(data);
    return out;
}

std::optional<std::string> NodeRoot::link(const fs::path& p) const
{
    paths::Fd location(
        paths::openBeneath(fd_.get(), rel(p), O_PATH | O_NOFOLLOW, paths::Links::Refuse));
    struct stat st {};
    if (!location.valid() || ::fstat(location.get(), &st) != 0 || !S_ISLNK(st.st_mode))
        return std::nullopt;
    return targetOf(location.get());
}

bool NodeRoot::isDirectory(const fs::path& p) const
{
    return paths::Fd(
               paths::openBeneath(fd_.get(), rel(p), O_PATH | O_DIRECTORY, paths::Links::Refuse))
        .valid();
}

std::vector<std::string> NodeRoot::list(const fs::path& p) const
{
    std::vector<std::string> out;
    int fd = paths::openBeneath(fd_.get(), rel(p), O_RDONLY | O_DIRECTORY, paths::Links::Refuse);
    if (fd < 0)
        return out;
    DIR* dir = ::fdopendir(fd);
    if (!dir) {
        ::close(fd);
        return out;
    }
    while (const dirent* e = ::readdir(dir)) {
        std::string name = e->d_name;
        if (name != "." && name != "..")
            out.push_back(std::move(name));
    }
    ::closedir(dir);
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace nicd::sim::capture
