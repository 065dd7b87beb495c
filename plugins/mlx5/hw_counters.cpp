#include "hw_counters.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <string>

namespace nicd::mlx5 {

namespace pv1 = ::nicd::plugin::v1;
namespace fs = std::filesystem;

namespace {
// Reads a decimal counter file; 0 on success, else errno (EINVAL for non-numeric content).
int readCounter(const fs::path& p, uint64_t& v)
{
    int fd = ::open(p.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return errno;
    char buf[64];
    ssize_t n = ::read(fd, buf, sizeof buf - 1);
    int err = n < 0 ? errno : 0;
    ::close(fd);
    if (n < 0)
        return err;
    std::string_view t(buf, static_cast<size_t>(n));
    while (!t.empty() && (t.back() == '\n' || t.back() == ' '))
        t.remove_suffix(1);
    auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    return (t.empty() || ec != std::errc() || ptr != t.data() + t.size()) ? EINVAL : 0;
}
} // namespace

pv1::Status readHwCounters(const pv1::DeviceRef& dev, std::vector<pv1::Sample>& out)
{
    pv1::Status first;
    for (const auto& port : dev.ports) {
        auto dir = fs::path(dev.sysfs_path) / "ports" / std::to_string(port.port) / "hw_counters";
        std::error_code ec;
        std::vector<fs::path> files;
        for (const auto& e : fs::directory_iterator(dir, ec))
            files.push_back(e.path());
        std::sort(files.begin(), files.end());
        for (const auto& f : files) {
            uint64_t v = 0;
            if (int err = readCounter(f, v)) {
                if (first)
                    first = pv1::Status::fail(pv1::Errc::Io, f.string() + ": " + std::strerror(err), err);
                continue;
            }
            pv1::Sample s;
            s.source = "hw_counters";
            s.port = port.port;
            s.name = f.filename().string();
            s.value = v;
            s.kind = s.name == "lifespan" ? pv1::SampleKind::Gauge : pv1::SampleKind::Counter;
            out.push_back(std::move(s));
        }
    }
    return first;
}

} // namespace nicd::mlx5
