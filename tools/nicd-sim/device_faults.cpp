// Device faults: the RDMA device unregisters and comes back; its firmware stops answering.
#include "counter_access.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace nicd::sim {

namespace {

fs::path asideDir(const fs::path& root, const std::string& dev)
{
    return simDir(root) / "removed" / dev;
}

} // namespace

void remove(const fs::path& root, const std::string& dev)
{
    NodeLock lock(root);
    auto st = NodeState::load(root);
    auto& d = st.device(dev);
    if (d.removed)
        throw SimError(dev + " is already removed");
    auto aside = asideDir(root, dev);
    fs::create_directories(aside.parent_path());
    fs::remove_all(aside);
    fs::rename(root / d.ib_dir, aside); // sysfs symlinks inside are relative: they move intact
    fs::remove(root / "sys/class/infiniband" / dev);
    d.removed = true;
    st.save(root);
}

void restore(const fs::path& root, const std::string& dev)
{
    NodeLock lock(root);
    auto st = NodeState::load(root);
    auto& d = st.device(dev);
    if (!d.removed)
        throw SimError(dev + " is not removed");
    fs::rename(asideDir(root, dev), root / d.ib_dir);
    relativeSymlink(root / d.ib_dir, root / "sys/class/infiniband" / dev);
    d.removed = false;
    st.save(root);
}

void stall(const fs::path& root, const std::string& dev)
{
    NodeLock lock(root);
    auto st = NodeState::load(root);
    auto& d = st.device(dev);
    if (d.removed)
        throw SimError(dev + " is removed (nicd-sim inject DIR restore " + dev + ")");
    if (d.stalled)
        throw SimError(dev + " is already stalled");
    auto& saved = st.stalled_values[dev];
    std::error_code ec;
    for (const auto& pe : fs::directory_iterator(root / d.ib_dir / "ports", ec))
        for (const auto& f : fs::directory_iterator(pe.path() / "counters", ec)) {
            saved[stalledKey(root, f.path())] = readNumber(f.path());
            fs::remove(f.path());
            if (::mkfifo(f.path().c_str(), 0444) != 0)
                throw SimError("cannot create FIFO " + f.path().string() + ": " +
                               std::strerror(errno));
        }
    d.stalled = true;
    st.save(root);
}

void unstall(const fs::path& root, const std::string& dev)
{
    NodeLock lock(root);
    auto st = NodeState::load(root);
    auto& d = st.device(dev);
    if (!d.stalled)
        throw SimError(dev + " is not stalled");
    for (const auto& [rel, v] : st.stalled_values[dev]) {
        auto file = root / rel;
        // Put the regular file back and answer whoever opened the FIFO before that (a firmware
        // that finally replies). Opening it read-write never blocks and lets every reader blocked
        // in open() through, also one that gets there between this open and the rename; they
        // then read the value written once the regular file is in place.
        int fd = ::open(file.c_str(), O_RDWR | O_NONBLOCK | O_CLOEXEC);
        writeNumber(root, file, v); // rename replaces the FIFO
        if (fd >= 0) {
            auto text = std::to_string(v) + "\n";
            (void)!::write(fd, text.data(), text.size());
            ::close(fd);
        }
    }
    st.stalled_values.erase(dev);
    d.stalled = false;
    st.save(root);
}

} // namespace nicd::sim
