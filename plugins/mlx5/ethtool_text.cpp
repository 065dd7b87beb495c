#include "ethtool_text.hpp"

#include <cctype>
#include <charconv>

namespace nicd::mlx5 {

namespace {

std::string_view trim(std::string_view s)
{
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
        s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
        s.remove_suffix(1);
    return s;
}

} // namespace

Stats parseEthtoolText(std::string_view text)
{
    Stats out;
    while (!text.empty()) {
        const auto nl = text.find('\n');
        const auto line = text.substr(0, nl);
        text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
        const auto colon = line.rfind(':');
        if (colon == std::string_view::npos)
            continue;
        const auto name = trim(line.substr(0, colon));
        const auto value = trim(line.substr(colon + 1));
        uint64_t v = 0;
        auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
        if (name.empty() || value.empty() || ec != std::errc() ||
            ptr != value.data() + value.size())
            continue;
        out.emplace_back(std::string(name), v);
    }
    return out;
}

} // namespace nicd::mlx5
