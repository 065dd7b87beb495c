#include "files.hpp"

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <sstream>

namespace nicd::sim {

fs::path simDir(const fs::path& root)
{
    return root / "run/nicd-sim";
}

void writeText(const fs::path& root, const fs::path& file, std::string_view text)
{
    static std::atomic<uint64_t> serial{0};
    auto tmp = simDir(root) / "tmp" / (std::to_string(::getpid()) + "." + std::to_string(++serial));
    fs::create_directories(tmp.parent_path());
    {
        std::ofstream out(tmp, std::ios::trunc | std::ios::binary);
        out.write(text.data(), static_cast<std::streamsize>(text.size()));
        if (!out.flush())
            throw SimError("cannot write " + tmp.string() + " (for " + file.string() + ")");
    }
    std::error_code ec;
    fs::rename(tmp, file, ec);
    if (ec) {
        fs::remove(tmp);
        throw SimError("cannot replace " + file.string() + ": " + ec.message());
    }
}

void writeNumber(const fs::path& root, const fs::path& file, uint64_t value)
{
    writeText(root, file, std::to_string(value) + "\n");
}

std::string readText(const fs::path& file)
{
    std::ifstream in(file, std::ios::binary);
    if (!in)
        throw SimError("cannot read " + file.string() + ": " + std::strerror(errno));
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
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
    for (const auto& [name, value] : stats)
        text += "     " + name + ": " + std::to_string(value) + "\n";
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
