#include "inventory/sysfs_values.hpp"

#include <nicd/plugin/sdk/counter_dir.h>
#include <nicd/plugin/sdk/printed_record.h>

#include <fcntl.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>

namespace nicd::sysfs {

std::optional<NumberedState> parseNumberedState(std::string_view text)
{
    text = trim(text);
    int n = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (ec != std::errc() || ptr == text.data() || n < 0)
        return std::nullopt;
    std::string_view rest(ptr, static_cast<size_t>(text.data() + text.size() - ptr));
    if (!rest.empty() && rest.front() != ':')
        return std::nullopt;
    if (!rest.empty())
        rest.remove_prefix(1);
    return NumberedState{n, std::string(trim(rest))};
}

std::optional<double> parseRateGbps(std::string_view text)
{
    text = trim(text);
    double v = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    // from_chars also reads "inf" and "nan", which the kernel never prints.
    if (ec != std::errc() || ptr == text.data() || !std::isfinite(v) || v < 0)
        return std::nullopt;
    std::string_view rest =
        trim(std::string_view(ptr, static_cast<size_t>(text.data() + text.size() - ptr)));
    if (rest.starts_with("Gb/sec"))
        return v;
    if (rest.starts_with("Mb/sec"))
        return v / 1000.0;
    return std::nullopt;
}

std::optional<uint64_t> parseCounter(std::string_view text)
{
    return plugin::sdk::parseCounterValue(text);
}

bool isNoPma(std::string_view text)
{
    return trim(text) == "N/A (no PMA)";
}

std::optional<int> parseInt(std::string_view text)
{
    text = trim(text);
    int v = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || ptr == text.data() || ptr != text.data() + text.size())
        return std::nullopt;
    return v;
}

std::optional<uint64_t> parseHex(std::string_view text)
{
    text = trim(text);
    if (!text.starts_with("0x") && !text.starts_with("0X"))
        return std::nullopt;
    text.remove_prefix(2);
    uint64_t v = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v, 16);
    if (ec != std::errc() || ptr == text.data() || ptr != text.data() + text.size())
        return std::nullopt;
    return v;
}

bool isPciAddress(std::string_view t)
{
    return t.size() == 12 && plugin::sdk::startsWithPciAddress(t); // dddd:bb:dd.f, alone
}

namespace {
// Reads `fd` to its end (at most 64 KiB: sysfs attributes are one page) and closes it. With
// `short_read_ends`, a read shorter than asked is taken as the end (a sysfs attribute is
// printed whole; a regular file reads whole): one read() instead of two.
Result<std::string> readAndClose(int fd, bool short_read_ends)
{
    std::string out;
    char buf[4096];
    for (;;) {
        ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            Error error{std::strerror(errno)};
            ::close(fd);
            return error;
        }
        out.append(buf, static_cast<size_t>(n));
        if (n == 0 || (short_read_ends && static_cast<size_t>(n) < sizeof buf) ||
            out.size() > 65536)
            break;
    }
    ::close(fd);
    return out;
}
} // namespace

Result<std::string> readFile(const std::filesystem::path& path)
{
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return Error{std::strerror(errno)};
    return readAndClose(fd, false);
}

namespace {
// A file's text as a value: trimmed, and absent when empty.
std::optional<std::string> asValue(const Result<std::string>& text)
{
    auto t = text ? trim(*text) : std::string_view();
    if (t.empty())
        return std::nullopt;
    return std::string(t);
}
} // namespace

std::optional<std::string> readValue(const std::filesystem::path& path)
{
    return asValue(readFile(path));
}

Directory::Directory(const std::filesystem::path& dir)
    : fd_(::open(dir.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC))
{
}

Directory::~Directory()
{
    if (fd_ >= 0)
        ::close(fd_);
}

std::optional<std::string> Directory::value(const char* name) const
{
    if (fd_ < 0)
        return std::nullopt;
    int fd = ::openat(fd_, name, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return std::nullopt;
    return asValue(readAndClose(fd, true));
}

} // namespace nicd::sysfs
