// Where a netdev's statistics come from: the kernel's ethtool ioctl on a real node, the
// simulator's `ethtool -S` text file <root>/run/nicd-sim/ethtool/<netdev> under a simulated root.
#pragma once

#include <nicd/plugin/ethtool_stats.h>
#include <nicd/plugin/plugin.h>

#include <string>
#include <string_view>

namespace nicd::plugin::sdk {

// Errc::NotSupported when the netdev has no statistics (a bond, a simulated netdev without a
// file), Errc::NoDevice when it is gone; other codes are real read failures.
::nicd::plugin::v1::Status readNetdevStats(const std::string& root, bool simulated,
                                           const std::string& netdev, Stats& out);

// The simulator's capture of one netdev, kept open from one read to the next: read from its
// start with one pread, and opened again when the simulator has replaced it (it renames a new
// file over the old one, which leaves the kept one unlinked).
class SimStatsFile {
public:
    explicit SimStatsFile(std::string path) : path_(std::move(path)) {}
    ~SimStatsFile();
    SimStatsFile(const SimStatsFile&) = delete;
    SimStatsFile& operator=(const SimStatsFile&) = delete;

    // The file's text, read into `buf` (one buffer serves every file: polls are serialized), or
    // the status readNetdevStats would give.
    ::nicd::plugin::v1::Status read(std::string& buf, std::string_view& text);
    const std::string& path() const { return path_; }

private:
    void close();

    std::string path_;
    int fd_ = -1;
};

} // namespace nicd::plugin::sdk
