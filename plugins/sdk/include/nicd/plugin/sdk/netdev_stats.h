// A netdev's statistics under a simulated root: the simulator's `ethtool -S` text file
// <root>/run/nicd-sim/ethtool/<netdev> (a real node's come from the ioctl: ethtool_ioctl.h).
#pragma once

#include <nicd/plugin/plugin.h>

#include <string>
#include <string_view>

namespace nicd::plugin::sdk {

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
    // the status readEthtoolIoctl would give: Errc::NotSupported when the simulator has no file
    // for the netdev (a bond), Errc::Io for a real read failure.
    ::nicd::plugin::v1::Status read(std::string& buf, std::string_view& text);
    const std::string& path() const { return path_; }

private:
    void close();

    std::string path_;
    int fd_ = -1;
};

} // namespace nicd::plugin::sdk
