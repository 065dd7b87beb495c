// The CEE DCBX sub-TLVs' layouts (openlldp include/tlv_dcbx.h; Linux ice_dcb.h and
// ice_parse_cee_pgcfg_tlv): each sub-TLV is a 2-byte big-endian type<<9|length header, then
// `length` bytes; a feature sub-TLV's bytes open with oper_version, max_version, the flags (bit 7
// enable, 6 willing, 5 error) and a subtype, then its own fields.
#include "neighbor/cee_dcbx_tlv.hpp"

#include <nicd/plugin/sdk/netlink_attrs.h>

#include <fmt/format.h>

#include <string>

namespace nicd::neighbor {

using plugin::sdk::DecodeError;

namespace {

constexpr size_t kCeeSubHeader = 2;
constexpr uint8_t kCeeTypePriorityGroups = 2;
constexpr uint8_t kCeeTypePfc = 3;
constexpr size_t kCeePgLength = 17; // feature header 4, PGID table 4, shares 8, TCs 1
constexpr size_t kCeePfcLength = 6; // feature header 4, bitmap 1, TCs 1
constexpr size_t kCeeFeatureHeader = 4;
constexpr uint8_t kCeeMaxGroup = 7;
constexpr uint8_t kCeeMaxPercent = 100;

[[noreturn]] void ceeFailAt(size_t byte, const std::string& what)
{
    throw DecodeError(fmt::format("CEE DCBX TLV (00-1B-21 subtype 2), byte {}: {}", byte, what));
}

CeeFeature ceeFeature(std::span<const uint8_t> body)
{
    CeeFeature f;
    f.oper_version = body[0];
    f.max_version = body[1];
    f.enabled = (body[2] & 0x80) != 0;
    f.willing = (body[2] & 0x40) != 0;
    f.error = (body[2] & 0x20) != 0;
    return f;
}

// `body` is the sub-TLV after its header, `at` the byte where that body starts.
CeePriorityGroups ceePriorityGroups(std::span<const uint8_t> body, size_t at)
{
    CeePriorityGroups pg;
    pg.feature = ceeFeature(body);
    const size_t table = kCeeFeatureHeader;
    for (size_t p = 0; p < 8; ++p) {
        const uint8_t b = body[table + p / 2];
        const auto group = static_cast<uint8_t>(p % 2 == 0 ? b >> 4 : b & 0x0F);
        if (group > kCeeMaxGroup && group != kCeeStrictGroup)
            ceeFailAt(at + table + p / 2,
                      fmt::format("priority {} in priority group {} (0-{}, or {} for strict)", p,
                                  group, kCeeMaxGroup, kCeeStrictGroup));
        pg.priority_group[p] = group;
    }
    const size_t shares = table + 4;
    for (size_t g = 0; g < 8; ++g) {
        const uint8_t percent = body[shares + g];
        if (percent > kCeeMaxPercent)
            ceeFailAt(at + shares + g,
                      fmt::format("priority group {} given {} % of the bandwidth, above {}", g,
                                  percent, kCeeMaxPercent));
        pg.group_bandwidth[g] = percent;
    }
    pg.num_tcs = body[shares + 8];
    return pg;
}

CeePfc ceePfc(std::span<const uint8_t> body)
{
    CeePfc pfc;
    pfc.feature = ceeFeature(body);
    pfc.enabled_bitmap = body[kCeeFeatureHeader];
    pfc.num_tcs = body[kCeeFeatureHeader + 1];
    return pfc;
}

void ceeRequireLength(const char* what, size_t length, size_t want, size_t at)
{
    if (length != want)
        ceeFailAt(at, fmt::format("{} sub-TLV of {} bytes, want {}", what, length, want));
}

} // namespace

CeeDcbx decodeCeeDcbx(std::span<const uint8_t> info)
{
    CeeDcbx out;
    size_t at = 0;
    while (at < info.size()) {
        const size_t left = info.size() - at;
        if (left < kCeeSubHeader)
            ceeFailAt(at, "a sub-TLV header cut after 1 byte");
        const auto header = static_cast<uint16_t>(info[at] << 8 | info[at + 1]);
        const auto type = static_cast<uint8_t>(header >> 9);
        const size_t length = header & 0x01FF;
        if (length > left - kCeeSubHeader)
            ceeFailAt(at, fmt::format("sub-TLV type {} of {} bytes, {} left", type, length,
                                      left - kCeeSubHeader));
        const auto body = info.subspan(at + kCeeSubHeader, length);
        const size_t body_at = at + kCeeSubHeader;
        if (type == kCeeTypePriorityGroups) {
            ceeRequireLength("Priority Group", length, kCeePgLength, at);
            if (out.priority_groups)
                ceeFailAt(at, "a second Priority Group sub-TLV");
            out.priority_groups = ceePriorityGroups(body, body_at);
        } else if (type == kCeeTypePfc) {
            ceeRequireLength("PFC", length, kCeePfcLength, at);
            if (out.pfc)
                ceeFailAt(at, "a second PFC sub-TLV");
            out.pfc = ceePfc(body);
        }
        at = body_at + length;
    }
    return out;
}

} // namespace nicd::neighbor
