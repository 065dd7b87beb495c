#include "capture/tree_writer.hpp"

#include "beneath.hpp"
#include "capture/spawn.hpp"
#include "sim.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <span>

namespace nicd::sim::capture {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void fail(const fs::path& p, const char* what, int err)
{
    throw SimError(std::string("capture: cannot ") + what + " " + p.string() + ": " +
                   std::strerror(err));
}

void writeFile(int dir, const std::string& name, const fs::path& shown, const std::string& data)
{
    int fd =
        ::openat(dir, name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0)
        fail(shown, "create", errno);
    size_t done = 0;
    while (done < data.size()) {
        ssize_t n = ::write(fd, data.data() + done, data.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            int err = errno;
            ::close(fd);
            fail(shown, "write", err);
        }
        done += static_cast<size_t>(n);
    }
    if (::close(fd) != 0)
        fail(shown, "write", errno);
}

// The directory of each entry, opened once for all the entries it holds (the tree is in path
// order, so they come one after the other).
class Parents {
public:
    explicit Parents(const fs::path& top) : top_(top), top_fd_(openDir(top)) {}

    int of(std::span<const std::string> dir)
    {
        std::string key;
        for (const auto& c : dir)
            key += c + "/";
        if (key != key_ || fd_.get() < 0) {
            fd_ = openDirBeneath(top_fd_.get(), dir, true, 0755, top_ / key);
            key_ = key;
        }
        return fd_.get();
    }

private:
    fs::path top_;
    paths::Fd top_fd_;
    std::string key_;
    paths::Fd fd_;
};

} // namespace

void writeTree(const CaptureTree& tree, const fs::path& dir)
{
    Parents parents(dir);
    for (const auto& [rel, e] : tree.entries()) {
        const auto shown = dir / rel;
        auto parts = plainComponents(rel);
        if (!parts)
            throw SimError("capture: refusing an entry outside the capture: " + rel);
        const auto name = parts->back();
        const int at = parents.of(std::span(*parts).first(parts->size() - 1));
        switch (e.kind) {
        case EntryKind::File:
            writeFile(at, name, shown, e.data);
            break;
        case EntryKind::Symlink:
            if (::symlinkat(e.data.c_str(), at, name.c_str()) != 0)
                fail(shown, "link", errno);
            break;
        case EntryKind::Fifo:
            if (::mkfifoat(at, name.c_str(), 0444) != 0)
                fail(shown, "make the FIFO", errno);
            break;
        case EntryKind::Dir:
            if (::mkdirat(at, name.c_str(), 0755) != 0 && errno != EEXIST)
                fail(shown, "create", errno);
            break;
        }
    }
}

std::string writeTarball(const fs::path& dir, const fs::path& tarball, std::time_t mtime)
{
    int fd = ::open(tarball.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0)
        return std::string(errno == EEXIST ? "it already exists" : std::strerror(errno));
    auto why = runProgram({"tar", "--create", "--gzip", "--file", "-", "--sort=name", "--owner=0",
                           "--group=0", "--numeric-owner", "--mtime=@" + std::to_string(mtime),
                           "--directory", dir.parent_path().string(), dir.filename().string()},
                          fd);
    if (why.empty() && ::fsync(fd) != 0)
        why = std::string("cannot write it: ") + std::strerror(errno);
    ::close(fd);
    if (!why.empty()) {
        ::unlink(tarball.c_str()); // ours: created above
        return "tar: " + why;
    }
    return {};
}

} // namespace nicd::sim::capture
