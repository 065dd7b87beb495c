// Reading a directory of counter files (sysfs counters/, hw_counters/) cheaply. Shared by the
// daemon and plugins.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nicd::plugin::sdk {

// One port's counter directory kept open from one read to the next: each file is opened once and
// then read with pread() at offset 0 (sysfs produces an attribute afresh on every read from its
// start): one system call per counter instead of openat/read/close. The directory is listed and
// its files opened again when it changed: another modification time (a tree on a regular
// filesystem; sysfs keeps a directory's time, and a counter directory's files do not change
// while it exists), the directory removed, or another directory at the path. Whether it changed
// is asked of the directory kept open (fstat); the path is walked again (stat, through the
// /sys/class links: dearer than the reads themselves) only every `path_check_every` reads, for a
// directory renamed or moved while it stays (a netdev renamed by udev, RDMA devices swapping
// names), and at the read after checkPathNext() (the daemon calls it when rtnetlink announces a
// link change, renames included). A device
// that unregisters needs no walk: its open attributes fail with ENODEV (below), and the daemon's
// inventory, which lists the devices every cycle, drops its directories. A listing
// made within a second of the directory's modification time is not trusted (files replaced in
// that second could go unseen): the next read lists again and reads each file through a fresh
// open, as a tree whose files keep being replaced (the simulator's) always is. A read that fails
// with ENODEV or ESTALE (the device went away) is read again from whatever directory is at the
// path now. Descriptors kept open (directories first) are held to a quarter of the soft
// RLIMIT_NOFILE per module; past that, files are opened per read. On sysfs each open attribute
// also holds a page of kernel memory. Not for concurrent use.
class CounterDir {
public:
    explicit CounterDir(std::string path, unsigned path_check_every = kPathCheckEvery);
    static constexpr unsigned kPathCheckEvery = 16;
    ~CounterDir();
    CounterDir(const CounterDir&) = delete;
    CounterDir& operator=(const CounterDir&) = delete;

    // Calls `fn(name, content, err)` for every entry in name order: `err` is 0 and `content` the
    // file's text, or `err` is the errno of the failed open/read. `skip(name)` returning true
    // skips a file without reading it (for backoff). Returns 0, or the errno of reaching the
    // directory.
    int forEach(
        const std::function<bool(std::string_view name)>& skip,
        const std::function<void(std::string_view name, std::string_view content, int err)>& fn);
    const std::string& path() const { return path_; }
    // The next forEach looks the path up again (its owner heard of a rename).
    void checkPathNext() { check_path_next_ = true; }
    // Descriptors held open now (the directory's and its files').
    size_t openDescriptors() const;

private:
    struct File {
        std::string name;
        int fd = -1;
    };
    int relist();
    void closeAll();
    int readOne(File& f, char* buf, size_t size, size_t& n);

    std::string path_;
    int dfd_ = -1;
    int regone_dfd_ = -1; // during a pass after the directory went away: the path's new one
    std::vector<File> files_;
    bool trusted_ = false;
    unsigned path_check_every_;
    unsigned reads_since_path_check_ = 0;
    bool check_path_next_ = false;
    uint64_t ino_ = 0, dev_ = 0;
    int64_t mtime_sec_ = 0, mtime_nsec_ = 0;
};

// A decimal counter value with optional surrounding whitespace; nullopt for anything else
// ("N/A (no PMA)", negative, overflow, empty).
std::optional<uint64_t> parseCounterValue(std::string_view text);

} // namespace nicd::plugin::sdk
