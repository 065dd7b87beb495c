#include <nicd/plugin/sdk/counter_dir.h>

#include <dirent.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <ctime>
#include <memory>
#include <vector>

namespace nicd::plugin::sdk {

std::optional<uint64_t> parseCounterValue(std::string_view t)
{
    while (!t.empty() && std::isspace(static_cast<unsigned char>(t.front())))
        t.remove_prefix(1);
    while (!t.empty() && std::isspace(static_cast<unsigned char>(t.back())))
        t.remove_suffix(1);
    if (t.empty())
        return std::nullopt;
    uint64_t v = 0;
    auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (ec != std::errc() || ptr != t.data() + t.size())
        return std::nullopt;
    return v;
}

namespace {

ssize_t preadRetrying(int fd, char* buf, size_t size)
{
    ssize_t n;
    do {
        n = ::pread(fd, buf, size, 0);
    } while (n < 0 && errno == EINTR);
    return n;
}

// Descriptors kept open by every CounterDir of this module (the daemon and each plugin count
// their own), held to a quarter of the soft RLIMIT_NOFILE so that sockets, journal files and the
// textfile always find one; past that, files are opened per read.
std::atomic<long> kept_fds{0};

long keptFdBudget()
{
    static const long budget = [] {
        rlimit rl{};
        if (::getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
            return 1024L;
        return static_cast<long>(rl.rlim_cur / 4);
    }();
    return budget;
}

bool reserveKeptFd()
{
    if (kept_fds.fetch_add(1) < keptFdBudget())
        return true;
    kept_fds.fetch_sub(1);
    return false;
}

void closeKeptFd(int& fd)
{
    if (fd < 0)
        return;
    ::close(fd);
    fd = -1;
    kept_fds.fetch_sub(1);
}

ssize_t readRetrying(int fd, char* buf, size_t size)
{
    ssize_t n;
    do {
        n = ::read(fd, buf, size);
    } while (n < 0 && errno == EINTR);
    return n;
}

} // namespace

CounterDir::CounterDir(std::string path, unsigned path_check_every)
    : path_(std::move(path)), path_check_every_(std::max(1U, path_check_every))
{
}

CounterDir::~CounterDir()
{
    closeAll();
}

size_t CounterDir::openDescriptors() const
{
    size_t n = dfd_ >= 0 ? 1 : 0;
    for (const auto& f : files_)
        n += f.fd >= 0 ? 1 : 0;
    return n;
}

void CounterDir::closeAll()
{
    for (auto& f : files_)
        closeKeptFd(f.fd);
    files_.clear();
    closeKeptFd(dfd_);
    trusted_ = false;
}

int CounterDir::relist()
{
    closeAll();
    dfd_ = ::open(path_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd_ < 0)
        return errno;
    kept_fds.fetch_add(1); // counted, so that files give way to directories within the budget
    struct stat st {};
    if (::fstat(dfd_, &st) != 0) {
        int err = errno;
        closeAll();
        return err;
    }
    // fdopendir takes its descriptor: list through a duplicate and keep dfd_ for openat.
    int lfd = ::fcntl(dfd_, F_DUPFD_CLOEXEC, 0);
    DIR* d = lfd >= 0 ? ::fdopendir(lfd) : nullptr;
    if (d == nullptr) {
        int err = errno;
        if (lfd >= 0)
            ::close(lfd);
        closeAll();
        return err;
    }
    std::unique_ptr<DIR, int (*)(DIR*)> listing(d, ::closedir);
    while (dirent* e = ::readdir(d)) {
        if (e->d_name[0] != '.')
            files_.push_back({e->d_name, -1});
    }
    listing.reset();
    std::sort(files_.begin(), files_.end(),
              [](const File& a, const File& b) { return a.name < b.name; });
    ino_ = st.st_ino;
    dev_ = st.st_dev;
    mtime_sec_ = st.st_mtim.tv_sec;
    mtime_nsec_ = st.st_mtim.tv_nsec;
    timespec now{};
    ::clock_gettime(CLOCK_REALTIME, &now);
    trusted_ = now.tv_sec - st.st_mtim.tv_sec > 1;
    return 0;
}

// Reads `f` from its start: through its kept descriptor when the listing is trusted (and the
// budget allows one), else through a fresh open. Returns 0 or the errno.
int CounterDir::readOne(File& f, char* buf, size_t size, size_t& n)
{
    n = 0;
    auto fresh = [&](int dirfd) -> int {
        int fd = ::openat(dirfd, f.name.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            return errno;
        ssize_t r = readRetrying(fd, buf, size); // not pread: a pipe cannot seek
        int err = r < 0 ? errno : 0;
        ::close(fd);
        n = r < 0 ? 0 : static_cast<size_t>(r);
        return err;
    };
    if (regone_dfd_ >= 0)
        return fresh(regone_dfd_);
    if (!trusted_)
        return fresh(dfd_);
    if (f.fd < 0) {
        if (!reserveKeptFd())
            return fresh(dfd_);
        f.fd = ::openat(dfd_, f.name.c_str(), O_RDONLY | O_CLOEXEC);
        if (f.fd < 0) {
            int err = errno;
            kept_fds.fetch_sub(1);
            return err;
        }
    }
    ssize_t r = preadRetrying(f.fd, buf, size);
    if (r >= 0) {
        n = static_cast<size_t>(r);
        return 0;
    }
    int err = errno;
    closeKeptFd(f.fd);
    if (err == ESPIPE) // cannot be read again from its start (a pipe): read it fresh
        return fresh(dfd_);
    if (err != ENODEV && err != ESTALE)
        return err;
    // The attribute went away with its device. One registered again has a new directory at the
    // path: the rest of this pass reads from there, the next one lists it afresh.
    trusted_ = false;
    regone_dfd_ = ::open(path_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    return regone_dfd_ >= 0 ? fresh(regone_dfd_) : err;
}

int CounterDir::forEach(const std::function<bool(std::string_view)>& skip,
                        const std::function<void(std::string_view, std::string_view, int)>& fn)
{
    // The directory kept open is asked whether it changed (fstat: no walk down the path, which
    // through /sys/class links costs more than the reads themselves), and the path is looked up
    // again only every path_check_every_ reads (see the header).
    const bool check_path =
        dfd_ < 0 || ++reads_since_path_check_ >= path_check_every_ || check_path_next_;
    if (check_path) {
        reads_since_path_check_ = 0;
        check_path_next_ = false;
    }
    struct stat st {};
    if ((check_path ? ::stat(path_.c_str(), &st) : ::fstat(dfd_, &st)) != 0) {
        int err = errno;
        closeAll();
        return err;
    }
    bool same = dfd_ >= 0 && trusted_ && st.st_nlink != 0 && st.st_ino == ino_ &&
                st.st_dev == dev_ && st.st_mtim.tv_sec == mtime_sec_ &&
                st.st_mtim.tv_nsec == mtime_nsec_;
    if (!same) {
        if (int err = relist())
            return err;
    }
    char buf[256];
    for (auto& f : files_) {
        if (skip && skip(f.name))
            continue;
        size_t n = 0;
        if (int err = readOne(f, buf, sizeof buf, n))
            fn(f.name, {}, err);
        else
            fn(f.name, std::string_view(buf, n), 0);
    }
    if (regone_dfd_ >= 0) {
        ::close(regone_dfd_);
        regone_dfd_ = -1;
    }
    return 0;
}

} // namespace nicd::plugin::sdk
