#include "paths/atomic_file.hpp"

#include "paths/dir_entries.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <string>

namespace nicd::paths {

namespace {

Error failure(const std::filesystem::path& target, const std::string& step, int err)
{
    return Error{"cannot write " + target.string() + ": " + step + ": " + std::strerror(err)};
}

// ".<name>.<pid>.<n>": unique per call within this process (threads may write at once), and
// hidden from node_exporter's *.prom match.
std::string tempNameFor(const std::filesystem::path& p)
{
    static std::atomic<uint64_t> calls{0};
    return "." + p.filename().string() + "." + std::to_string(::getpid()) + "." +
           std::to_string(calls.fetch_add(1));
}

bool writeAll(int fd, std::string_view content, int& err)
{
    size_t done = 0;
    while (done < content.size()) {
        ssize_t n = ::write(fd, content.data() + done, content.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            err = n < 0 ? errno : EIO;
            return false;
        }
        done += static_cast<size_t>(n);
    }
    return true;
}

} // namespace

Result<void> writeFileAtomically(const std::filesystem::path& path, std::string_view content,
                                 Durability durability, mode_t mode)
{
    return writeFileAtomically(
        path, [content](const ChunkWriter& write) { write(content); }, durability, mode);
}

Result<void> writeFileAtomically(const std::filesystem::path& path, const ChunkProducer& produce,
                                 Durability durability, mode_t mode)
{
    if (path.filename().empty())
        return Error{"cannot write '" + path.string() + "': not a file name"};
    auto dir = path.parent_path().empty() ? std::filesystem::path(".") : path.parent_path();
    int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0)
        return failure(path, "cannot open its directory " + dir.string(), errno);
    auto err = writeFileAtomicallyAt(dfd, path, produce, durability, mode);
    ::close(dfd);
    return err;
}

Result<void> writeFileAtomicallyAt(int dir, const std::filesystem::path& path,
                                   const ChunkProducer& produce, Durability durability, mode_t mode)
{
    const bool synced = durability == paths::Durability::Synced;
    const std::string name = path.filename().string();
    if (name.empty() || name == "." || name == "..")
        return Error{"cannot write '" + path.string() + "': not a file name"};
    const std::string tmp = tempNameFor(path);
    const auto shown_tmp = path.parent_path() / tmp;
    // O_EXCL: never an existing file, and (with O_CREAT) never through a symlink, dangling or not.
    constexpr int kFlags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC;
    int fd = ::openat(dir, tmp.c_str(), kFlags, mode);
    if (fd < 0 && errno == EEXIST) {     // left by an earlier process with our pid, or planted
        ::unlinkat(dir, tmp.c_str(), 0); // removes the name only, whatever it is
        fd = ::openat(dir, tmp.c_str(), kFlags, mode);
    }
    if (fd < 0)
        return failure(path, "cannot create temporary file " + shown_tmp.string(), errno);

    auto abandon = [&](const std::string& step, int err) {
        if (fd >= 0)
            ::close(fd);
        ::unlinkat(dir, tmp.c_str(), 0);
        return failure(path, step, err);
    };
    int err = 0;
    // `mode` whatever the umask (which could only have taken bits away).
    if (::fchmod(fd, mode) != 0)
        return abandon("cannot chmod " + shown_tmp.string(), errno);
    try {
        produce([&](std::string_view piece) {
            if (err == 0)
                (void)writeAll(fd, piece, err);
        });
    } catch (...) {
        ::close(fd);
        ::unlinkat(dir, tmp.c_str(), 0);
        throw;
    }
    if (err != 0)
        return abandon("cannot write " + shown_tmp.string(), err);
    if (synced && ::fsync(fd) != 0)
        return abandon("cannot fsync " + shown_tmp.string(), errno);
    int closed = ::close(fd);
    fd = -1;
    if (closed != 0)
        return abandon("cannot close " + shown_tmp.string(), errno);
    if (::renameat(dir, tmp.c_str(), dir, name.c_str()) != 0)
        return abandon("cannot rename " + shown_tmp.string() + " onto it", errno);

    // The new content is in place; make the rename itself durable. A failure here cannot be
    // undone and readers already see the new file, so it is not reported as a failed write.
    if (synced)
        (void)::fsync(dir);
    return {};
}

namespace {

// The pid of ".<name>.<pid>.<n>", or 0 when `file` is not one of `name`'s temporary files.
pid_t temporaryOwner(const std::string& file, const std::string& name)
{
    std::string prefix = "." + name + ".";
    if (!file.starts_with(prefix))
        return 0;
    std::string_view rest = std::string_view(file).substr(prefix.size());
    auto dot = rest.find('.');
    if (dot == std::string_view::npos || dot == 0 || dot > 9 || dot + 1 == rest.size())
        return 0;
    auto digits = [](std::string_view s) {
        return std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
    };
    if (!digits(rest.substr(0, dot)) || !digits(rest.substr(dot + 1)))
        return 0;
    return static_cast<pid_t>(std::stol(std::string(rest.substr(0, dot))));
}

bool isRunning(pid_t pid)
{
    return pid != ::getpid() && (::kill(pid, 0) == 0 || errno == EPERM);
}

} // namespace

std::vector<std::filesystem::path> removeStaleTemporariesAt(int dir,
                                                            const std::filesystem::path& path)
{
    std::vector<std::filesystem::path> removed;
    const std::string name = path.filename().string();
    // The directory is read and its entries unlinked on the descriptor: nothing is looked up by
    // path again, so a link planted meanwhile in its place leads nowhere.
    for (const auto& entry : paths::entriesAt(dir)) {
        pid_t owner = temporaryOwner(entry, name);
        if (owner > 0 && !isRunning(owner) && ::unlinkat(dir, entry.c_str(), 0) == 0)
            removed.push_back(path.parent_path() / entry);
    }
    return removed;
}

std::vector<std::filesystem::path> removeStaleTemporaries(const std::filesystem::path& path)
{
    auto parent = path.parent_path().empty() ? std::filesystem::path(".") : path.parent_path();
    const int dir = ::open(parent.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (dir < 0)
        return {};
    auto removed = removeStaleTemporariesAt(dir, path);
    ::close(dir);
    return removed;
}

} // namespace nicd::paths
