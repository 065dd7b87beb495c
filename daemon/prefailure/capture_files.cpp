#include "prefailure/capture_files.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fstream>
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
    std::ifstream in(file, std::ios::binary);
    if (!in) {
        int err = errno;
        if (err == ENOENT || err == ENOTDIR)
            return Reply<std::string>::unsupported(fmt::format("no {}", file.string()));
        return Reply<std::string>::failed(fmt::format("{}: {}", file.string(), std::strerror(err)));
    }
    std::string text;
    text.resize(limit + 1);
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    auto got = static_cast<size_t>(in.gcount());
    if (in.bad())
        return Reply<std::string>::failed(fmt::format("{}: read error", file.string()));
    if (got > limit)
        return Reply<std::string>::failed(
            fmt::format("{}: larger than {} bytes", file.string(), limit));
    text.resize(got);
    return Reply<std::string>::success(std::move(text));
}

} // namespace nicd::prefailure
