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
                    : err == EXDEV                 ? "a symlink or \"..\" leads out of the tree"
                                                   : std::strerror(err)));
}

} // namespace

paths::Fd openDir(const fs::path& dir)
{
    int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        fail(dir, "open", errno);
    return paths::Fd(fd);
}

paths::Fd openDirBeneath(int parent, std::span<const std::string> components, bool create,
                         mode_t mode, const fs::path& shown)
{
    std::string rel;
    for (const auto& c : components)
        rel += (rel.empty() ? "" : "/") + c;
    paths::WalkOptions o;
    o.links = paths::Links::Refuse;
    o.flags = O_RDONLY | O_DIRECTORY;
    if (create)
        o.create = mode;
    auto w = paths::walkBeneath(parent, rel, o);
    if (!w.ok())
        fail(shown, create ? "create" : "open a directory of", w.err);
    return std::move(w.fd);
}

AtParent parentBeneath(const fs::path& root, const fs::path& path, bool create)
{
    auto rel = path.lexically_relative(root);
    auto parts = plainComponents(rel.string());
    if (rel.empty() || !parts)
        throw SimError(path.string() + ": not a plain path inside the node " + root.string());
    const std::string name = parts->back();
    parts->pop_back();
    auto top = openDir(root);
    return {openDirBeneath(top.get(), *parts, create, 0755, path.parent_path()), name};
}

void renameBeneath(const fs::path& root, const fs::path& from, const fs::path& to)
{
    auto a = parentBeneath(root, from);
    auto b = parentBeneath(root, to, true);
    if (::renameat(a.dir.get(), a.name.c_str(), b.dir.get(), b.name.c_str()) != 0)
        fail(from, "move", errno);
}

void unlinkBeneath(const fs::path& root, const fs::path& path, bool missing_ok)
{
    auto p = parentBeneath(root, path);
    struct stat st {};
    if (::fstatat(p.dir.get(), p.name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
        if (errno == ENOENT && missing_ok)
            return;
        fail(path, "remove", errno);
    }
    if (::unlinkat(p.dir.get(), p.name.c_str(), S_ISDIR(st.st_mode) ? AT_REMOVEDIR : 0) != 0)
        fail(path, "remove", errno);
}

BeneathWriter::BeneathWriter(const fs::path& root, paths::Links links)
    : root_(root), links_(links), root_fd_(openDir(root))
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
    if (it == dirs_.end()) {
        paths::Fd dir(paths::openBeneath(root_fd_.get(), key, O_PATH | O_DIRECTORY, links_));
        if (!dir.valid())
            fail(root_ / std::string(rel), "open the directory of", errno);
        it = dirs_.emplace(key, std::move(dir)).first;
    }
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
        struct stat st {};
        const bool exists = ::fstatat(dir, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0;
        if (exists && S_ISLNK(st.st_mode))
            throw SimError("cannot replace " + (root_ / std::string(rel)).string() +
                           ": it is a symlink (links in the tree are neither followed nor "
                           "replaced)");
        // A file that is there keeps its mode (a counter the firmware refuses stays refused:
        // refuseCounter), unless a FIFO replaces it.
        struct stat staged_st {};
        if (exists && S_ISREG(st.st_mode) &&
            ::fstatat(tmp_fd_.get(), staged.c_str(), &staged_st, AT_SYMLINK_NOFOLLOW) == 0 &&
            S_ISREG(staged_st.st_mode))
            ::fchmodat(tmp_fd_.get(), staged.c_str(), st.st_mode & 07777, 0);
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
