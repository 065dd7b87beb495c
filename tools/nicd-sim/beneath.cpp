#include "beneath.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>

namespace nicd::sim {

namespace {

[[noreturn]] void fail(const fs::path& p, const char* what, int err)
{
    throw SimError(std::string("cannot ") + what + " " + p.string() + ": " +
                   (err == ELOOP || err == ENOTDIR ? "a symlink or file is in the way (links in "
                                                     "the tree are not followed)"
                                                   : std::strerror(err)));
}

} // namespace

std::optional<std::vector<std::string>> plainComponents(std::string_view rel)
{
    if (rel.empty() || rel.front() == '/')
        return std::nullopt;
    std::vector<std::string> out;
    while (true) {
        auto slash = rel.find('/');
        auto part = rel.substr(0, slash);
        if (part.empty() || part == "." || part == "..")
            return std::nullopt;
        out.emplace_back(part);
        if (slash == std::string_view::npos)
            return out;
        rel.remove_prefix(slash + 1);
    }
}

DirFd::~DirFd()
{
    if (fd_ >= 0)
        ::close(fd_);
}

DirFd& DirFd::operator=(DirFd&& o) noexcept
{
    if (this != &o) {
        if (fd_ >= 0)
            ::close(fd_);
        fd_ = o.fd_;
        o.fd_ = -1;
    }
    return *this;
}

DirFd openDir(const fs::path& dir)
{
    int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        fail(dir, "open", errno);
    return DirFd(fd);
}

DirFd openDirBeneath(int parent, std::span<const std::string> components, bool create, mode_t mode,
                     const fs::path& shown)
{
    DirFd at(::dup(parent));
    if (at.get() < 0)
        fail(shown, "open", errno);
    for (const auto& c : components) {
        if (create && ::mkdirat(at.get(), c.c_str(), mode) != 0 && errno != EEXIST)
            fail(shown / c, "create", errno);
        int fd = ::openat(at.get(), c.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0)
            fail(shown, "open a directory of", errno);
        at = DirFd(fd);
    }
    return at;
}

BeneathWriter::BeneathWriter(const fs::path& root) : root_(root), root_fd_(openDir(root))
{
    static const std::vector<std::string> kTmp = {"run", "nicd-sim", "tmp"};
    tmp_fd_ = openDirBeneath(root_fd_.get(), kTmp, true, 0755, root_ / "run/nicd-sim/tmp");
}

std::pair<int, std::string> BeneathWriter::parentOf(std::string_view rel)
{
    auto parts = plainComponents(rel);
    if (!parts)
        throw SimError("not a path inside " + root_.string() + ": " + std::string(rel));
    std::string name = parts->back();
    parts->pop_back();
    std::string key;
    for (const auto& p : *parts)
        key += p + "/";
    auto it = dirs_.find(key);
    if (it == dirs_.end())
        it = dirs_
                 .emplace(key, openDirBeneath(root_fd_.get(), *parts, false, 0755,
                                              root_ / std::string(rel)))
                 .first;
    return {it->second.get(), name};
}

std::string BeneathWriter::stage(bool fifo, std::string_view content)
{
    static std::atomic<uint64_t> serial{0};
    auto name = std::to_string(::getpid()) + ".s" + std::to_string(++serial);
    const auto shown = root_ / "run/nicd-sim/tmp" / name;
    if (fifo) {
        if (::mkfifoat(tmp_fd_.get(), name.c_str(), 0444) != 0)
            fail(shown, "make the FIFO", errno);
        return name;
    }
    int fd = ::openat(tmp_fd_.get(), name.c_str(),
                      O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0)
        fail(shown, "create", errno);
    size_t done = 0;
    while (done < content.size()) {
        ssize_t n = ::write(fd, content.data() + done, content.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            int err = errno;
            ::close(fd);
            ::unlinkat(tmp_fd_.get(), name.c_str(), 0);
            fail(shown, "write", err);
        }
        done += static_cast<size_t>(n);
    }
    if (::close(fd) != 0) {
        int err = errno;
        ::unlinkat(tmp_fd_.get(), name.c_str(), 0);
        fail(shown, "write", err);
    }
    return name;
}

void BeneathWriter::renameIntoPlace(const std::string& staged, std::string_view rel)
{
    try {
        auto [dir, name] = parentOf(rel);
        if (::renameat(tmp_fd_.get(), staged.c_str(), dir, name.c_str()) != 0)
            fail(root_ / std::string(rel), "replace", errno);
    } catch (...) {
        ::unlinkat(tmp_fd_.get(), staged.c_str(), 0);
        throw;
    }
}

void BeneathWriter::replace(std::string_view rel, std::string_view content)
{
    renameIntoPlace(stage(false, content), rel);
}

void BeneathWriter::replaceWithFifo(std::string_view rel)
{
    renameIntoPlace(stage(true, {}), rel);
}

} // namespace nicd::sim
