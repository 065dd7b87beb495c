#include "capture/tree_writer.hpp"

#include "capture/spawn.hpp"
#include "sim.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <set>

namespace nicd::sim::capture {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void fail(const fs::path& p, const char* what, int err)
{
    throw SimError(std::string("capture: cannot ") + what + " " + p.string() + ": " +
                   std::strerror(err));
}

void writeFile(const fs::path& p, const std::string& data)
{
    int fd = ::open(p.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0)
        fail(p, "create", errno);
    size_t done = 0;
    while (done < data.size()) {
        ssize_t n = ::write(fd, data.data() + done, data.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            int err = errno;
            ::close(fd);
            fail(p, "write", err);
        }
        done += static_cast<size_t>(n);
    }
    if (::close(fd) != 0)
        fail(p, "write", errno);
}

} // namespace

void writeTree(const CaptureTree& tree, const fs::path& dir)
{
    if (::mkdir(dir.c_str(), 0755) != 0)
        fail(dir, "create", errno);
    std::set<std::string> made;
    auto parents = [&](const fs::path& p) {
        auto parent = p.parent_path().string();
        if (made.insert(parent).second) {
            std::error_code ec;
            fs::create_directories(parent, ec);
            if (ec)
                fail(parent, "create", ec.value());
        }
    };
    for (const auto& [rel, e] : tree.entries()) {
        const auto p = dir / rel;
        parents(p);
        switch (e.kind) {
        case EntryKind::File:
            writeFile(p, e.data);
            break;
        case EntryKind::Symlink:
            if (::symlink(e.data.c_str(), p.c_str()) != 0)
                fail(p, "link", errno);
            break;
        case EntryKind::Fifo:
            if (::mkfifo(p.c_str(), 0444) != 0)
                fail(p, "make the FIFO", errno);
            break;
        case EntryKind::Dir: {
            std::error_code ec;
            fs::create_directories(p, ec);
            if (ec)
                fail(p, "create", ec.value());
            made.insert(p.string());
            break;
        }
        }
    }
}

std::string writeTarball(const fs::path& dir, const fs::path& tarball, std::time_t mtime)
{
    const auto partial = tarball.string() + ".partial";
    auto why =
        runProgram({"tar", "--create", "--gzip", "--file", partial, "--sort=name", "--owner=0",
                    "--group=0", "--numeric-owner", "--mtime=@" + std::to_string(mtime),
                    "--directory", dir.parent_path().string(), dir.filename().string()});
    std::error_code ec;
    if (!why.empty()) {
        fs::remove(partial, ec);
        return "tar: " + why;
    }
    fs::rename(partial, tarball, ec);
    return ec ? "cannot rename " + partial + ": " + ec.message() : std::string();
}

} // namespace nicd::sim::capture
