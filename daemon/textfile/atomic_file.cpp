#include "textfile/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <string>

namespace nicd {

namespace {

std::string failure(const std::filesystem::path& target, const std::string& step, int err)
{
    return "cannot write " + target.string() + ": " + step + ": " + std::strerror(err);
}

// ".<name>.<pid>.<n>": unique per call within this process (threads may write at once), and
// hidden from node_exporter's *.prom match.
std::filesystem::path tempPathFor(const std::filesystem::path& dir, const std::filesystem::path& p)
{
    static std::atomic<uint64_t> calls{0};
    return dir / ("." + p.filename().string() + "." + std::to_string(::getpid()) + "." +
                  std::to_string(calls.fetch_add(1)));
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

std::optional<std::string> writeFileAtomically(const std::filesystem::path& path,
                                               std::string_view content)
{
    return writeFileAtomically(path, [content](const ChunkWriter& write) { write(content); });
}

std::optional<std::string>
writeFileAtomically(const std::filesystem::path& path,
                    const std::function<void(const ChunkWriter&)>& produce)
{
    if (path.filename().empty())
        return "cannot write '" + path.string() + "': not a file name";
    auto dir = path.parent_path().empty() ? std::filesystem::path(".") : path.parent_path();
    auto tmp = tempPathFor(dir, path);
    int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0 && errno == EEXIST) { // left by an earlier process with our pid that crashed
        ::unlink(tmp.c_str());
        fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    }
    if (fd < 0)
        return failure(path, "cannot create temporary file " + tmp.string(), errno);

    auto abandon = [&](const std::string& step, int err) {
        if (fd >= 0)
            ::close(fd);
        ::unlink(tmp.c_str());
        return failure(path, step, err);
    };
    int err = 0;
    // 0644 whatever the umask: node_exporter runs as its own user and must read the file.
    if (::fchmod(fd, 0644) != 0)
        return abandon("cannot chmod " + tmp.string(), errno);
    try {
        produce([&](std::string_view piece) {
            if (err == 0)
                (void)writeAll(fd, piece, err);
        });
    } catch (...) {
        ::close(fd);
        ::unlink(tmp.c_str());
        throw;
    }
    if (err != 0)
        return abandon("cannot write " + tmp.string(), err);
    if (::fsync(fd) != 0)
        return abandon("cannot fsync " + tmp.string(), errno);
    int closed = ::close(fd);
    fd = -1;
    if (closed != 0)
        return abandon("cannot close " + tmp.string(), errno);
    if (::rename(tmp.c_str(), path.c_str()) != 0)
        return abandon("cannot rename " + tmp.string() + " onto it", errno);

    // The new content is in place; make the rename itself durable. A failure here cannot be
    // undone and readers already see the new file, so it is not reported as a failed write.
    int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        ::fsync(dfd);
        ::close(dfd);
    }
    return std::nullopt;
}

} // namespace nicd
