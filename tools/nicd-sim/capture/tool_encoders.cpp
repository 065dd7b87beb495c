#include "capture/tool_encoders.hpp"

#include "files.hpp"
#include "prefailure/decode_error.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <limits>

namespace nicd::sim::capture {

namespace {

using nlohmann::ordered_json;

ordered_json counterJson(const FecCounter& c)
{
    ordered_json j{{"total", c.total}};
    if (!c.lanes.empty())
        j["lanes"] = c.lanes;
    return j;
}

ordered_json countJson(uint64_t v)
{
    if (v == std::numeric_limits<uint64_t>::max())
        return "unlimited";
    return v;
}

} // namespace

std::string fecJson(const FecStats& stats)
{
    ordered_json dev;
    dev["ifname"] = stats.netdev;
    dev["active"] = ordered_json::array({stats.active.empty() ? "None" : stats.active});
    ordered_json s = ordered_json::object();
    if (stats.corrected_blocks)
        s["corrected_blocks"] = counterJson(*stats.corrected_blocks);
    if (stats.uncorrectable_blocks)
        s["uncorrectable_blocks"] = counterJson(*stats.uncorrectable_blocks);
    if (stats.corrected_bits)
        s["corrected_bits"] = counterJson(*stats.corrected_bits);
    if (!s.empty())
        dev["statistics"] = s;
    return ordered_json::array({dev}).dump(4, ' ', false,
                                           nlohmann::json::error_handler_t::replace) +
           "\n";
}

std::string devlinkHealthJson(const std::vector<HealthReporter>& reporters)
{
    ordered_json health = ordered_json::object();
    for (const auto& r : reporters) {
        auto& list = health[r.handle];
        if (list.is_null())
            list = ordered_json::array();
        list.push_back({{"reporter", r.name},
                        {"state", r.state.empty() ? (r.healthy ? "healthy" : "error") : r.state},
                        {"error", countJson(r.errors)},
                        {"recover", countJson(r.recovers)}});
    }
    ordered_json doc{{"health", health}};
    return doc.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string ethtoolText(const std::vector<std::pair<std::string, uint64_t>>& stats)
{
    return formatEthtool(stats);
}

prefailure::Reply<std::vector<uint8_t>> readModuleBlob(const EepromReader& read)
{
    using Out = prefailure::Reply<std::vector<uint8_t>>;
    const prefailure::EepromRead lower_read{0x50, 0, 0, 0, 128, 0};
    auto lower = read(lower_read);
    if (!lower.ok())
        return lower;
    if (lower.value.size() != 128)
        return Out::failed(fmt::format("lower page: {} bytes, 128 asked", lower.value.size()));
    try {
        std::vector<uint8_t> blob(prefailure::eepromBlobSize(lower.value));
        std::copy(lower.value.begin(), lower.value.end(), blob.begin());
        for (const auto& r : prefailure::eepromReadPlan(lower.value)) {
            auto part = read(r);
            if (!part.ok())
                return part;
            if (part.value.size() != r.length || r.blob_offset + r.length > blob.size())
                return Out::failed(fmt::format("page {:#04x}: {} bytes, {} asked", r.page,
                                               part.value.size(), r.length));
            std::copy(part.value.begin(), part.value.end(),
                      blob.begin() + static_cast<std::ptrdiff_t>(r.blob_offset));
        }
        return Out::success(std::move(blob));
    } catch (const prefailure::DecodeError& e) {
        return Out::failed(e.what());
    }
}

} // namespace nicd::sim::capture
