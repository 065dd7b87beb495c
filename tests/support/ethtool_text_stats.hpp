// `ethtool -S` text parsed whole into its statistics, in order (sdk::forEachEthtoolStat): the
// reference the tests and the fuzz target hold the SDK's fast path (sdk::addEthtoolText) and
// nicd-sim's encoder to. Only tests want the whole list; a plugin adds a netdev's text to a
// batch, so this stays out of the SDK's installed headers.
#pragma once

#include <nicd/plugin/sdk/ethtool_stats.h>
#include <nicd/plugin/sdk/ethtool_text.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace nicd::test {

inline plugin::sdk::Stats parseEthtoolText(std::string_view text)
{
    plugin::sdk::Stats out;
    plugin::sdk::forEachEthtoolStat(text, [&out](std::string_view name, uint64_t value) {
        out.emplace_back(std::string(name), value);
    });
    return out;
}

} // namespace nicd::test
