#include "textfile/atomic_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace nicd {

namespace {
std::string fail(const std::string& what, const std::filesystem::path& p, int err)
{
    return what + " " + p.string() + ": " + std::strerror(err);
}
} // namespace

std::optional<std::string> writeFileAtomically(const std::filesystem::path& path,
                                               std::string_view content)
{
    auto dir = path.parent_path().empty() ? std::filesystem::path(".") : path.parent_path();
    auto tmp = dir / ("." + path.filename().string() + ".tmp-" + std::to_string(::getpid()));
    int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0 && errno == EEXIST) { // left over by a crashed writer with our pid
        ::unlink(tmp.c_str());
        fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    }
    if (fd < 0)
        return fail("cannot create", tmp, errno);
    size_t done = 0;
    while (done < content.size()) {
        ssize_t n = ::write(fd, content.data() + done, content.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            int err = n < 0 ? errno : EIO;
            ::close(fd);
            ::unlink(tmp.c_str());
            return fail("cannot write", tmp, err);
        }
        done += static_cast<size_t>(n);
    }
    if (::fsync(fd) != 0) {
        int err = errno;
        ::close(fd);
        ::unlink(tmp.c_str());
        return fail("cannot fsync", tmp, err);
    }
    ::close(fd);
    if (::rename(tmp.c_str(), path.c_str()) != 0) {
        int err = errno;
        ::unlink(tmp.c_str());
        return fail("cannot rename onto", path, err);
    }
    int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        ::fsync(dfd);
        ::close(dfd);
    }
    return std::nullopt;
}

} // namespace nicd
