#include "capture/node_files.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <memory>
#include <mutex>
#include <thread>

namespace nicd::sim::capture {

NodeRead readNodeFile(const fs::path& file, size_t limit)
{
    NodeRead r;
    // O_NONBLOCK: opening a FIFO (a stalled simulated device) returns at once instead of waiting
    // for a writer; fstat then says what it is.
    int fd = ::open(file.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        int err = errno;
        r.status =
            err == ENOENT || err == ENOTDIR ? NodeRead::Status::Missing : NodeRead::Status::Error;
        r.error = std::strerror(err);
        return r;
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        r.status = S_ISFIFO(st.st_mode) ? NodeRead::Status::Fifo : NodeRead::Status::Error;
        r.error = "not a regular file";
        ::close(fd);
        return r;
    }
    // Sysfs attributes are a few bytes: read into a small buffer, grow only for larger files.
    std::string data;
    std::array<char, 4096> buf{};
    while (true) {
        ssize_t n = ::read(fd, buf.data(), buf.size());
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            r.status = NodeRead::Status::Error;
            r.error = std::strerror(errno);
            ::close(fd);
            return r;
        }
        if (n == 0)
            break;
        data.append(buf.data(), static_cast<size_t>(n));
        if (data.size() > limit)
            break;
    }
    ::close(fd);
    if (data.size() > limit) {
        r.status = NodeRead::Status::Error;
        r.error = "larger than " + std::to_string(limit) + " bytes";
        return r;
    }
    r.status = NodeRead::Status::Ok;
    r.data = std::move(data);
    return r;
}

std::vector<NodeRead> readWithDeadline(const std::vector<fs::path>& files,
                                       std::chrono::milliseconds deadline, FileReader read)
{
    struct Shared {
        std::mutex m;
        std::condition_variable cv;
        std::vector<NodeRead> results;
        size_t done = 0;
    };
    auto shared = std::make_shared<Shared>();
    shared->results.resize(files.size());
    for (auto& r : shared->results)
        r.status = NodeRead::Status::TimedOut;
    // The worker owns copies of what it needs: when it is left behind it touches nothing else.
    std::thread([shared, files, read = std::move(read)] {
        for (size_t i = 0; i < files.size(); ++i) {
            auto r = read(files[i]);
            std::lock_guard lock(shared->m);
            shared->results[i] = std::move(r);
            shared->done = i + 1;
            if (shared->done == files.size()) // one wake-up, not one per file
                shared->cv.notify_all();
        }
    }).detach();
    std::unique_lock lock(shared->m);
    shared->cv.wait_for(lock, deadline, [&] { return shared->done == files.size(); });
    return shared->results; // a copy: the worker may still write into its own
}

std::vector<std::string> listDir(const fs::path& dir)
{
    std::vector<std::string> out;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        out.push_back(it->path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace nicd::sim::capture
