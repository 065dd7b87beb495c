// `ethtool -S` text, as the simulator writes it and as fixtures record it.
#pragma once

#include <nicd/plugin/sdk/ethtool_stats.h>
#include <nicd/plugin/sdk/sample_batch.h>

#include <cstdint>
#include <string_view>

namespace nicd::plugin::sdk {

// Pure: "NIC statistics:" then "     name: value" lines, each statistic handed to `fn(name,
// value)` in order (names point into `text`). Lines that are not "name: unsigned number" (the
// header, blank lines, garbage) are skipped; names are trimmed.
template <typename Fn> void forEachEthtoolStat(std::string_view text, Fn&& fn);
// The same, each statistic added to `run`. The layout of a netdev's text does not change from
// one poll to the next, so each line is first checked against the name the run expects there
// (the last poll's) and only its number parsed; a line that is anything else is parsed whole.
// The values and names are forEachEthtoolStat's either way.
void addEthtoolText(std::string_view text, plugin::sdk::SampleBatchBuilder::Run& run);

namespace detail {
// One line: true and name/value set when it is "name: unsigned number".
bool ethtoolLine(std::string_view line, std::string_view& name, uint64_t& value);
// True and `value` set when the line is statistic `expected` (a trimmed, non-empty name): then
// ethtoolLine gives `expected` and the same value. False says nothing: ethtoolLine decides.
bool ethtoolLineNamed(std::string_view line, std::string_view expected, uint64_t& value);
// Each line of `text` (without its '\n') to `fn`.
template <typename Fn> void forEachLine(std::string_view text, Fn&& fn)
{
    while (!text.empty()) {
        const auto nl = text.find('\n');
        fn(text.substr(0, nl));
        text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    }
}
} // namespace detail

template <typename Fn> void forEachEthtoolStat(std::string_view text, Fn&& fn)
{
    detail::forEachLine(text, [&fn](std::string_view line) {
        std::string_view name;
        uint64_t value = 0;
        if (detail::ethtoolLine(line, name, value))
            fn(name, value);
    });
}

} // namespace nicd::plugin::sdk
