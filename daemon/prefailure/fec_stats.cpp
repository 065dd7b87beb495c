// FEC statistics decoders: netlink attributes of ETHTOOL_MSG_FEC_GET_REPLY walked with the SDK's
// attribute reader, and ethtool's JSON output read with nlohmann::json. Pure functions;
// facts from shared/reference/pre-failure.md §1.
#include "prefailure/fec_stats.hpp"

#include <fmt/format.h>
#include <linux/ethtool.h>
#include <linux/ethtool_netlink.h>
#include <linux/netlink.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstring>
#include <optional>

namespace nicd::prefailure {

namespace {

using Json = nlohmann::json;
using plugin::sdk::NetlinkAttr;
using plugin::sdk::NetlinkAttrs;

// ETHTOOL_A_FEC_STAT_HIST (Linux 6.18) is newer than the uapi headers this builds against.
constexpr uint16_t kFecStatHist = 5;
constexpr size_t kU64Size = sizeof(uint64_t);
constexpr size_t kU32Size = sizeof(uint32_t);

// ethtool's output is a few hundred bytes and nests six levels at most (with the histogram).
constexpr size_t kMaxJsonBytes = 1 << 20;
constexpr int kMaxJsonDepth = 16;

// What ethtool prints in "active" when the kernel named no active mode.
constexpr std::string_view kEthtoolNoActiveMode = "None";

struct StatName {
    uint16_t attr;
    const char* attr_name;
    const char* json_key;
    std::optional<FecCounter> FecStats::*member;
};

constexpr StatName kStats[] = {
    {ETHTOOL_A_FEC_STAT_CORRECTED, "ETHTOOL_A_FEC_STAT_CORRECTED", "corrected_blocks",
     &FecStats::corrected_blocks},
    {ETHTOOL_A_FEC_STAT_UNCORR, "ETHTOOL_A_FEC_STAT_UNCORR", "uncorrectable_blocks",
     &FecStats::uncorrectable_blocks},
    {ETHTOOL_A_FEC_STAT_CORR_BITS, "ETHTOOL_A_FEC_STAT_CORR_BITS", "corrected_bits",
     &FecStats::corrected_bits},
};

// A u64 array statistic: empty = the driver does not count it; element 0 is the total.
std::optional<FecCounter> decodeCounter(std::span<const uint8_t> payload, const char* attr_name)
{
    if (payload.empty())
        return std::nullopt;
    if (payload.size() % kU64Size != 0)
        throw DecodeError(fmt::format("FEC_GET reply: {}: payload of {} bytes is not a whole "
                                      "number of u64 values",
                                      attr_name, payload.size()));
    std::vector<uint64_t> values(payload.size() / kU64Size);
    std::memcpy(values.data(), payload.data(), payload.size());
    FecCounter counter;
    counter.total = values.front();
    counter.lanes.assign(values.begin() + 1, values.end());
    return counter;
}

void decodeStatsNest(std::span<const uint8_t> nest, FecStats& out)
{
    for (const NetlinkAttr& attr : NetlinkAttrs(nest, "FEC_GET reply: ETHTOOL_A_FEC_STATS")) {
        if (attr.type == ETHTOOL_A_FEC_STAT_PAD || attr.type == kFecStatHist)
            continue;
        for (const StatName& stat : kStats) {
            if (attr.type == stat.attr)
                out.*stat.member = decodeCounter(attr.payload, stat.attr_name);
        }
    }
}

std::string decodeHeaderName(std::span<const uint8_t> nest)
{
    std::string name;
    for (const NetlinkAttr& attr : NetlinkAttrs(nest, "FEC_GET reply: ETHTOOL_A_FEC_HEADER")) {
        if (attr.type == ETHTOOL_A_HEADER_DEV_NAME)
            name.assign(attr.string());
    }
    return name;
}

uint32_t decodeU32(std::span<const uint8_t> payload, const char* attr_name)
{
    if (payload.size() < kU32Size)
        throw DecodeError(fmt::format("FEC_GET reply: {}: payload of {} bytes is too short for "
                                      "a u32",
                                      attr_name, payload.size()));
    uint32_t value;
    std::memcpy(&value, payload.data(), sizeof value);
    return value;
}

// ---- JSON ----

[[noreturn]] void fecJsonError(std::string_view path, std::string_view what)
{
    throw DecodeError(fmt::format("ethtool --json --show-fec output: {}: {}", path, what));
}

uint64_t jsonCount(const Json& value, const std::string& path)
{
    if (!value.is_number_unsigned())
        fecJsonError(path, "not a non-negative integer");
    return value.get<uint64_t>();
}

FecCounter jsonCounter(const Json& value, const std::string& path)
{
    if (!value.is_object())
        fecJsonError(path, "not an object");
    auto total = value.find("total");
    if (total == value.end())
        fecJsonError(path + ".total", "missing");
    FecCounter counter;
    counter.total = jsonCount(*total, path + ".total");
    auto lanes = value.find("lanes");
    if (lanes == value.end())
        return counter;
    if (!lanes->is_array())
        fecJsonError(path + ".lanes", "not an array");
    for (size_t i = 0; i < lanes->size(); ++i)
        counter.lanes.push_back(jsonCount((*lanes)[i], fmt::format("{}.lanes[{}]", path, i)));
    return counter;
}

std::string jsonActive(const Json& device, const std::string& path)
{
    auto active = device.find("active");
    if (active == device.end())
        return {};
    if (!active->is_array())
        fecJsonError(path + ".active", "not an array");
    if (active->empty())
        return {};
    const Json& first = active->front();
    if (!first.is_string())
        fecJsonError(path + ".active[0]", "not a string");
    std::string mode = first.get<std::string>();
    return mode == kEthtoolNoActiveMode ? std::string() : mode;
}

std::optional<std::string> jsonIfname(const Json& device, const std::string& path)
{
    auto ifname = device.find("ifname");
    if (ifname == device.end())
        return std::nullopt;
    if (!ifname->is_string())
        fecJsonError(path + ".ifname", "not a string");
    return ifname->get<std::string>();
}

// The array element for `netdev`, or the only element; its index for error messages.
size_t pickDevice(const Json& doc, std::string_view netdev)
{
    if (!doc.is_array())
        fecJsonError("top level", "not an array");
    if (doc.empty())
        fecJsonError("top level", "an empty array (no device)");
    for (size_t i = 0; i < doc.size(); ++i) {
        std::string path = fmt::format("[{}]", i);
        if (!doc[i].is_object())
            fecJsonError(path, "not an object");
        if (jsonIfname(doc[i], path) == netdev)
            return i;
    }
    if (doc.size() == 1)
        return 0;
    fecJsonError("top level",
                 fmt::format("no object with ifname \"{}\" among {}", netdev, doc.size()));
}

Json parseJsonText(std::string_view text)
{
    if (text.size() > kMaxJsonBytes)
        fecJsonError("input", fmt::format("{} bytes, more than the {} accepted", text.size(),
                                          kMaxJsonBytes));
    Json::parser_callback_t limit_depth = [](int depth, Json::parse_event_t, Json&) {
        if (depth > kMaxJsonDepth)
            fecJsonError("input", fmt::format("nested deeper than {} levels", kMaxJsonDepth));
        return true;
    };
    try {
        return Json::parse(text, limit_depth);
    } catch (const Json::exception& e) {
        fecJsonError("input", fmt::format("not JSON ({})", e.what()));
    }
}

} // namespace

std::string fecModeName(uint32_t link_mode_bit)
{
    switch (link_mode_bit) {
    case ETHTOOL_LINK_MODE_FEC_NONE_BIT:
        return "Off";
    case ETHTOOL_LINK_MODE_FEC_RS_BIT:
        return "RS";
    case ETHTOOL_LINK_MODE_FEC_BASER_BIT:
        return "BaseR";
    case ETHTOOL_LINK_MODE_FEC_LLRS_BIT:
        return "LLRS";
    default:
        return fmt::format("BIT{}", link_mode_bit);
    }
}

FecStats decodeFecReply(std::span<const uint8_t> attrs)
{
    FecStats out;
    for (const NetlinkAttr& attr : NetlinkAttrs(attrs, "FEC_GET reply")) {
        switch (attr.type) {
        case ETHTOOL_A_FEC_HEADER:
            out.netdev = decodeHeaderName(attr.payload);
            break;
        case ETHTOOL_A_FEC_ACTIVE:
            out.active = fecModeName(decodeU32(attr.payload, "ETHTOOL_A_FEC_ACTIVE"));
            break;
        case ETHTOOL_A_FEC_STATS:
            decodeStatsNest(attr.payload, out);
            break;
        default: // ETHTOOL_A_FEC_MODES, ETHTOOL_A_FEC_AUTO, newer attributes
            break;
        }
    }
    return out;
}

FecStats parseFecJson(std::string_view text, std::string_view netdev)
{
    const Json doc = parseJsonText(text);
    const size_t index = pickDevice(doc, netdev);
    const Json& device = doc[index];
    const std::string path = fmt::format("[{}]", index);

    FecStats out;
    out.netdev = jsonIfname(device, path).value_or(std::string(netdev));
    out.active = jsonActive(device, path);
    auto stats = device.find("statistics");
    if (stats == device.end())
        return out;
    if (!stats->is_object())
        fecJsonError(path + ".statistics", "not an object");
    for (const StatName& stat : kStats) {
        auto counter = stats->find(stat.json_key);
        if (counter != stats->end())
            out.*stat.member = jsonCounter(*counter, path + ".statistics." + stat.json_key);
    }
    return out;
}

} // namespace nicd::prefailure
