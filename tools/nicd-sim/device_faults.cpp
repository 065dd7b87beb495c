// Device faults: the RDMA device unregisters and comes back; its firmware stops answering.
#include "beneath.hpp"
#include "counter_access.hpp"
#include "paths/dir_entries.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <charconv>
#include <cstring>

namespace nicd::sim {

namespace {

fs::path asideDir(const fs::path& root, const std::string& dev)
{
    return simDir(root) / "removed" / dev;
}

// Whether `name` in `dir` is, itself, of `type` (S_IFREG, S_IFDIR): a link never is.
bool isAt(int dir, const std::string& name, mode_t type)
{
    struct stat st {};
    return ::fstatat(dir, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 &&
           (st.st_mode & S_IFMT) == type;
}

// The number in the regular file `name` of `dir`, read without following a link.
uint64_t numberAt(int dir, const std::string& name, const fs::path& shown)
{
    paths::Fd fd(::openat(dir, name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
    char buf[32] = {};
    ssize_t n = fd.valid() ? ::read(fd.get(), buf, sizeof buf - 1) : -1;
    uint64_t v = 0;
    auto [p, ec] = std::from_chars(buf, buf + std::max<ssize_t>(n, 0), v);
    if (n <= 0 || ec != std::errc())
        throw SimError(shown.string() + ": not a number");
    return v;
}

// Device `dev`, whose `flag` a fault turns `to`: turning it to what it already is says so.
SimDevice& turning(SimDevice& d, const std::string& dev, bool SimDevice::*flag, bool to,
                   const char* what)
{
    if (d.*flag == to)
        throw SimError(dev + (to ? " is already " : " is not ") + what);
    return d;
}

} // namespace

void remove(const fs::path& root, const std::string& dev)
{
    LockedNode st(root);
    auto& d = turning(st->device(dev), dev, &SimDevice::removed, true, "removed");
    auto aside = asideDir(root, dev);
    std::error_code ec;
    if (fs::exists(fs::symlink_status(aside, ec)))
        throw SimError(aside.string() + " is in the way");
    // On descriptors opened beneath the node: a link planted on the way is not followed.
    renameBeneath(root, root / d.ib_dir, aside); // sysfs links inside are relative: intact
    unlinkBeneath(root, root / "sys/class/infiniband" / dev);
    d.removed = true;
    st.save();
}

void restore(const fs::path& root, const std::string& dev)
{
    LockedNode st(root);
    auto& d = turning(st->device(dev), dev, &SimDevice::removed, false, "removed");
    renameBeneath(root, asideDir(root, dev), root / d.ib_dir);
    relativeSymlink(root / d.ib_dir, root / "sys/class/infiniband" / dev);
    d.removed = false;
    st.save();
}

void stall(const fs::path& root, const std::string& dev)
{
    LockedNode st(root);
    auto& d = turning(st->liveDevice(dev), dev, &SimDevice::stalled, true, "stalled");
    auto& saved = st->stalled_values[dev];
    // Every counter file, on descriptors opened beneath the node: a link planted for a port, its
    // counters/ directory or a counter file is left alone, never followed.
    const auto ports_dir = root / d.ib_dir / "ports";
    auto ports = parentBeneath(root, ports_dir / "1");
    for (const auto& port : paths::entriesAt(ports.dir.get())) {
        if (!isAt(ports.dir.get(), port, S_IFDIR))
            continue;
        const std::array<std::string, 2> rel{port, "counters"};
        auto counters =
            openDirBeneath(ports.dir.get(), rel, false, 0, ports_dir / port / "counters");
        for (const auto& name : paths::entriesAt(counters.get())) {
            const auto file = ports_dir / port / "counters" / name;
            if (!isAt(counters.get(), name, S_IFREG))
                continue;
            saved[stalledKey(root, file)] = numberAt(counters.get(), name, file);
            if (::unlinkat(counters.get(), name.c_str(), 0) != 0 ||
                ::mkfifoat(counters.get(), name.c_str(), 0444) != 0)
                throw SimError("cannot create FIFO " + file.string() + ": " + std::strerror(errno));
        }
    }
    d.stalled = true;
    st.save();
}

void unstall(const fs::path& root, const std::string& dev)
{
    LockedNode st(root);
    auto& d = turning(st->device(dev), dev, &SimDevice::stalled, false, "stalled");
    for (const auto& [rel, v] : st->stalled_values[dev]) {
        auto file = root / rel;
        // Put the regular file back and answer whoever opened the FIFO before that (a firmware
        // that finally replies). Opening it read-write never blocks and lets every reader blocked
        // in open() through, also one that gets there between this open and the rename; they
        // then read the value written once the regular file is in place.
        auto at = parentBeneath(root, file);
        int fd =
            ::openat(at.dir.get(), at.name.c_str(), O_RDWR | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
        writeNumber(root, file, v); // rename replaces the FIFO
        if (fd >= 0) {
            auto text = std::to_string(v) + "\n";
            (void)!::write(fd, text.data(), text.size());
            ::close(fd);
        }
    }
    st->stalled_values.erase(dev);
    d.stalled = false;
    st.save();
}

} // namespace nicd::sim
