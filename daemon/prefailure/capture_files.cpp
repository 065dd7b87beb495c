#include "prefailure/capture_files.hpp"

#include <nicd/plugin/sdk/small_file.h>

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <iterator>

namespace nicd::prefailure {

namespace fs = std::filesystem;

fs::path fecCapture(const HostPaths& paths, const std::string& netdev)
{
    return paths.host("/run/nicd-sim/ethtool-fec") / netdev;
}

fs::path moduleCapture(const HostPaths& paths, const std::string& netdev)
{
    return paths.host("/run/nicd-sim/module") / netdev;
}

fs::path devlinkHealthCapture(const HostPaths& paths)
{
    return paths.host("/run/nicd-sim/devlink-health.json");
}

Reply<std::string> readCapture(const fs::path& file, size_t limit)
{
    // A capture is data: a regular file, no link followed as its name, never waited on, bounded.
    std::string text;
    if (auto s = plugin::sdk::readRegularFile(file, limit, text); !s) {
        if (s.sys_errno == ENOENT || s.sys_errno == ENOTDIR)
            return Reply<std::string>::unsupported(fmt::format("no {}", file.string()));
        return Reply<std::string>::failed(s.message);
    }
    return Reply<std::string>::success(std::move(text));
}

} // namespace nicd::prefailure
