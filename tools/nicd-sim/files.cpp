#include "files.hpp"

#include "beneath.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <charconv>
#include <cstring>

namespace nicd::sim {

fs::path simDir(const fs::path& root)
{
    return root / "run/nicd-sim";
}

void writeText(const fs::path& root, const fs::path& file, std::string_view text)
{
    const auto rel = file.lexically_relative(root).string();
    if (!plainComponents(rel))
        throw SimError("cannot write " + file.string() + ": not a path inside " + root.string());
    BeneathWriter(root, paths::Links::Beneath).replace(rel, text);
}

void writeNumber(const fs::path& root, const fs::path& file, uint64_t value)
{
    writeText(root, file, std::to_string(value) + "\n");
}

std::string readText(const fs::path& file)
{
    // O_NONBLOCK: a FIFO (a stalled counter, or one a tree from elsewhere put anywhere) is
    // opened without waiting for a writer, and refused below instead of read forever.
    int fd = ::open(file.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0)
        throw SimError("cannot read " + file.string() + ": " + std::strerror(errno));
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        throw SimError("cannot read " + file.string() + ": " +
                       (S_ISFIFO(st.st_mode) ? "a FIFO (a stalled device's file), not a file"
                                             : "not a regular file"));
    }
    std::string text;
    std::array<char, 8192> buf{};
    while (true) {
        ssize_t n = ::read(fd, buf.data(), buf.size());
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            int err = errno;
            ::close(fd);
            throw SimError("cannot read " + file.string() + ": " + std::strerror(err));
        }
        if (n == 0)
            break;
        text.append(buf.data(), static_cast<size_t>(n));
    }
    ::close(fd);
    return text;
}

uint64_t readNumber(const fs::path& file)
{
    auto text = readText(file);
    uint64_t v = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end == text.data())
        throw SimError(file.string() + " does not hold a number");
    return v;
}

void relativeSymlink(const fs::path& target, const fs::path& link)
{
    fs::create_directories(link.parent_path());
    std::error_code ec;
    fs::remove(link, ec);
    fs::create_symlink(fs::relative(target, link.parent_path()), link);
}

std::string formatEthtool(const EthtoolStats& stats)
{
    std::string text = "NIC statistics:\n";
    text.reserve(text.size() + stats.size() * 48); // thousands of lines on an mlx5 netdev
    char digits[24];
    for (const auto& [name, value] : stats) {
        text.append("     ").append(name).append(": ");
        auto [end, ec] = std::to_chars(digits, digits + sizeof digits, value);
        text.append(digits, end).push_back('\n');
    }
    return text;
}

EthtoolStats parseEthtool(std::string_view text)
{
    EthtoolStats out;
    while (!text.empty()) {
        auto nl = text.find('\n');
        auto line = text.substr(0, nl);
        text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
        auto colon = line.rfind(':');
        auto first = line.find_first_not_of(' ');
        if (colon == std::string_view::npos || first == std::string_view::npos || first >= colon)
            continue;
        auto value = line.substr(colon + 1);
        value.remove_prefix(std::min(value.find_first_not_of(' '), value.size()));
        uint64_t v = 0;
        auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
        if (ec == std::errc() && end != value.data())
            out.emplace_back(std::string(line.substr(first, colon - first)), v);
    }
    return out;
}

fs::path ethtoolFile(const fs::path& root, const std::string& netdev)
{
    return simDir(root) / "ethtool" / netdev;
}

EthtoolStats readEthtool(const fs::path& root, const std::string& netdev)
{
    return parseEthtool(readText(ethtoolFile(root, netdev)));
}

void writeEthtool(const fs::path& root, const std::string& netdev, const EthtoolStats& stats)
{
    fs::create_directories(ethtoolFile(root, netdev).parent_path());
    writeText(root, ethtoolFile(root, netdev), formatEthtool(stats));
}

} // namespace nicd::sim
