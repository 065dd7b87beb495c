// `ethtool -S` text, as the simulator writes it and as fixtures record it.
#pragma once

#include "ethtool_stats.hpp"

#include <cstdint>
#include <string_view>

namespace nicd::mlx5 {

// Pure: "NIC statistics:" then "     name: value" lines. Lines that are not "name: unsigned
// number" (the header, blank lines, garbage) are skipped; names are trimmed.
Stats parseEthtoolText(std::string_view text);
// The same, each statistic handed to `fn(name, value)` in order (names point into `text`).
template <typename Fn> void forEachEthtoolStat(std::string_view text, Fn&& fn);

namespace detail {
// One line: true and name/value set when it is "name: unsigned number".
bool ethtoolLine(std::string_view line, std::string_view& name, uint64_t& value);
} // namespace detail

template <typename Fn> void forEachEthtoolStat(std::string_view text, Fn&& fn)
{
    while (!text.empty()) {
        const auto nl = text.find('\n');
        const auto line = text.substr(0, nl);
        text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
        std::string_view name;
        uint64_t value = 0;
        if (detail::ethtoolLine(line, name, value))
            fn(name, value);
    }
}

} // namespace nicd::mlx5
