#include "ethtool_text.hpp"

#include <charconv>

namespace nicd::mlx5 {

namespace {

bool isSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

std::string_view trim(std::string_view s)
{
    while (!s.empty() && isSpace(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && isSpace(s.back()))
        s.remove_suffix(1);
    return s;
}

} // namespace

namespace detail {

bool ethtoolLine(std::string_view line, std::string_view& name, uint64_t& value)
{
    const auto colon = line.rfind(':');
    if (colon == std::string_view::npos)
        return false;
    name = trim(line.substr(0, colon));
    const auto text = trim(line.substr(colon + 1));
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    return !name.empty() && !text.empty() && ec == std::errc() && ptr == text.data() + text.size();
}

} // namespace detail

Stats parseEthtoolText(std::string_view text)
{
    Stats out;
    forEachEthtoolStat(text, [&out](std::string_view name, uint64_t value) {
        out.emplace_back(std::string(name), value);
    });
    return out;
}

} // namespace nicd::mlx5
