#include "app/run_lock.hpp"

#include "paths/beneath.hpp"

#include <fmt/format.h>
#include <sys/file.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>

namespace nicd::app {

namespace {

constexpr const char* kRunDirectory = "run/nicd";
constexpr const char* kLockName = "nicd.lock";
constexpr const char* kHeartbeatName = "heartbeat";

// The pid written in the lock file, as "pid N"; the file is root's, but only digits are taken.
std::string holderOf(int fd)
{
    char buf[24] = {};
    ssize_t n = ::pread(fd, buf, sizeof buf - 1, 0);
    std::string pid;
    for (ssize_t i = 0; i < n && buf[i] >= '0' && buf[i] <= '9'; ++i)
        pid += buf[i];
    return pid.empty() ? "another process" : "pid " + pid;
}

} // namespace

RunLock RunLock::take(const HostPaths& paths)
{
    RunLock lock;
    lock.path_ = (paths.host("/run/nicd") / kLockName).string();
    paths::Fd root(::open(paths.root().c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
    if (!root.valid()) {
        lock.why_ = fmt::format("cannot open {}: {}", paths.root().string(), std::strerror(errno));
        return lock;
    }
    auto dir = paths::walkBeneath(root.get(), kRunDirectory,
                                  {.links = paths::Links::RootOwned,
                                   .flags = O_RDONLY | O_DIRECTORY,
                                   .create = 0755,
                                   .prefix = paths.root().string()});
    if (!dir.ok()) {
        lock.why_ = dir.why;
        return lock;
    }
    paths::Fd fd(::openat(dir.fd.get(), kLockName,
                          O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644));
    struct stat st {};
    if (!fd.valid() || ::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode)) {
        lock.why_ = fmt::format("cannot open {}: {}", lock.path_,
                                fd.valid() ? "not a regular file" : std::strerror(errno));
        return lock;
    }
    if (::flock(fd.get(), LOCK_EX | LOCK_NB) != 0) {
        if (errno != EWOULDBLOCK) {
            lock.why_ = fmt::format("cannot lock {}: {}", lock.path_, std::strerror(errno));
            return lock;
        }
        lock.outcome_ = Outcome::HeldByPeer;
        lock.holder_ = holderOf(fd.get());
        return lock;
    }
    // The heartbeat is this process's once it holds the lock.
    paths::Fd heartbeat(::openat(dir.fd.get(), kHeartbeatName,
                                 O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644));
    if (struct stat hs{};
        heartbeat.valid() && ::fstat(heartbeat.get(), &hs) == 0 && S_ISREG(hs.st_mode))
        lock.heartbeat_ = std::move(heartbeat);
    auto pid = fmt::format("{}\n", ::getpid());
    if (::ftruncate(fd.get(), 0) != 0 ||
        ::pwrite(fd.get(), pid.data(), pid.size(), 0) != static_cast<ssize_t>(pid.size()))
        lock.why_ = fmt::format("cannot write {}: {}", lock.path_, std::strerror(errno));
    lock.outcome_ = Outcome::Held; // held all the same: only the message lacks the pid
    lock.fd_ = std::move(fd);
    return lock;
}

void RunLock::beat(double realtime_seconds) const
{
    if (!heartbeat_.valid())
        return;
    // One short line written at offset 0 and the rest cut: a reader sees a whole number of
    // digits (the probe reads it again when not).
    const auto line = fmt::format("{}\n", static_cast<long long>(realtime_seconds));
    if (::pwrite(heartbeat_.get(), line.data(), line.size(), 0) ==
        static_cast<ssize_t>(line.size()))
        (void)::ftruncate(heartbeat_.get(), static_cast<off_t>(line.size()));
}

} // namespace nicd::app
