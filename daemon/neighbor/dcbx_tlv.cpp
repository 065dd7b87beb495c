// The IEEE 802.1Qaz TLVs' layouts: 802.1Q-2018 Annex D.2, openlldp include/lldp_8021qaz.h,
// Linux ice_dcb.h, shared/reference/lldp-dcbx.md (a frame laid out so, tcpdump 4.99.3 decodes as
// intended). Byte numbers count from the first byte of the information string; bit 7 is the most
// significant.
#include "neighbor/dcbx_tlv.hpp"

#include <nicd/plugin/sdk/netlink_attrs.h>

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <utility>

namespace nicd::neighbor {

using plugin::sdk::DecodeError;

namespace {

constexpr size_t kEtsInfoSize = 21;
constexpr size_t kPfcInfoSize = 2;
constexpr size_t kAppEntrySize = 3;
constexpr uint8_t kMaxTcsMask = 0x07;
constexpr uint8_t kPfcCapabilityMask = 0x0F;
constexpr size_t kPriorityTableAt = 1; // ETS: 4 bytes, priority 0 in the high nibble
constexpr size_t kBandwidthTableAt = 5;
constexpr size_t kTsaTableAt = 13;

std::string ieeeTlvName(uint8_t subtype)
{
    const char* name = "";
    switch (subtype) {
    case kSubtypeEtsConfig:
        name = "ETS Configuration TLV";
        break;
    case kSubtypeEtsRecommendation:
        name = "ETS Recommendation TLV";
        break;
    case kSubtypePfcConfig:
        name = "PFC Configuration TLV";
        break;
    case kSubtypeAppPriority:
        name = "Application Priority TLV";
        break;
    default:
        return fmt::format("TLV {} subtype {}", ouiText(kIeee8021Oui), subtype);
    }
    return fmt::format("{} ({} subtype {})", name, ouiText(kIeee8021Oui), subtype);
}

[[noreturn]] void failAt(uint8_t subtype, size_t byte, const std::string& what)
{
    throw DecodeError(fmt::format("{}, byte {}: {}", ieeeTlvName(subtype), byte, what));
}

// "1 byte", "21 bytes".
std::string bytesText(size_t n)
{
    return fmt::format("{} byte{}", n, n == 1 ? "" : "s");
}

void requireSize(uint8_t subtype, std::span<const uint8_t> info, size_t want)
{
    if (info.size() != want)
        failAt(subtype, std::min(info.size(), want),
               fmt::format("{} of information, want {}", bytesText(info.size()), want));
}

EtsTables etsTables(uint8_t subtype, std::span<const uint8_t> info)
{
    EtsTables t;
    for (size_t p = 0; p < 8; ++p) {
        const size_t at = kPriorityTableAt + p / 2;
        const auto tc = static_cast<uint8_t>(p % 2 == 0 ? info[at] >> 4 : info[at] & 0x0F);
        if (tc > kDcbxMaxTc)
            failAt(subtype, at,
                   fmt::format("priority {} in traffic class {}, above {}", p, tc, kDcbxMaxTc));
        t.priority_tc[p] = tc;
    }
    for (size_t tc = 0; tc < 8; ++tc) {
        const uint8_t percent = info[kBandwidthTableAt + tc];
        if (percent > kDcbxMaxPercent)
            failAt(subtype, kBandwidthTableAt + tc,
                   fmt::format("traffic class {} given {} % of the bandwidth, above {}", tc,
                               percent, kDcbxMaxPercent));
        t.tc_bandwidth[tc] = percent;
        t.tc_tsa[tc] = static_cast<Tsa>(info[kTsaTableAt + tc]);
    }
    return t;
}

// Stores a decoded TLV in its field of SwitchDcb.
struct Store {
    SwitchDcb& out;
    void operator()(const EtsConfig& v) const { out.ets = v; }
    void operator()(const EtsRecommendation& v) const { out.ets_recommendation = v; }
    void operator()(const PfcConfig& v) const { out.pfc = v; }
    void operator()(AppPriority&& v) const { out.app = std::move(v); }
    void operator()(const CeeDcbx& v) const { out.cee = v; }
};

std::string tlvName(const Oui& oui, uint8_t subtype)
{
    if (oui == kCeeDcbxOui && subtype == kSubtypeCeeDcbx)
        return fmt::format("CEE DCBX TLV ({} subtype {})", ouiText(oui), subtype);
    return ieeeTlvName(subtype);
}

} // namespace

std::string ouiText(const Oui& oui)
{
    return fmt::format("{:02X}-{:02X}-{:02X}", oui[0], oui[1], oui[2]);
}

EtsConfig decodeEtsConfig(std::span<const uint8_t> info)
{
    requireSize(kSubtypeEtsConfig, info, kEtsInfoSize);
    EtsConfig c;
    c.willing = (info[0] & kDcbxWillingBit) != 0;
    c.cbs = (info[0] & kDcbxSecondFlagBit) != 0;
    const auto max_tcs = static_cast<uint8_t>(info[0] & kMaxTcsMask);
    c.max_tcs = max_tcs == 0 ? 8 : max_tcs;
    c.tables = etsTables(kSubtypeEtsConfig, info);
    return c;
}

EtsRecommendation decodeEtsRecommendation(std::span<const uint8_t> info)
{
    requireSize(kSubtypeEtsRecommendation, info, kEtsInfoSize);
    return EtsRecommendation{etsTables(kSubtypeEtsRecommendation, info)};
}

PfcConfig decodePfcConfig(std::span<const uint8_t> info)
{
    requireSize(kSubtypePfcConfig, info, kPfcInfoSize);
    PfcConfig c;
    c.willing = (info[0] & kDcbxWillingBit) != 0;
    c.mbc = (info[0] & kDcbxSecondFlagBit) != 0;
    c.capability = static_cast<uint8_t>(info[0] & kPfcCapabilityMask);
    if (c.capability > kDcbxMaxPfcCapability)
        failAt(kSubtypePfcConfig, 0,
               fmt::format("PFC capability {}, above {}", c.capability, kDcbxMaxPfcCapability));
    c.enabled_bitmap = info[1];
    return c;
}

AppPriority decodeAppPriority(std::span<const uint8_t> info)
{
    if (info.empty())
        failAt(kSubtypeAppPriority, 0,
               "0 bytes of information, want a reserved byte, then 3 bytes an entry");
    const size_t entries = (info.size() - 1) / kAppEntrySize;
    const size_t tail = (info.size() - 1) % kAppEntrySize;
    if (tail != 0)
        failAt(kSubtypeAppPriority, 1 + entries * kAppEntrySize,
               fmt::format("an entry cut after {} of its {} bytes", tail, kAppEntrySize));
    AppPriority a;
    a.entries.reserve(entries);
    for (size_t k = 0; k < entries; ++k) {
        const size_t at = 1 + k * kAppEntrySize;
        AppEntry e;
        e.priority = static_cast<uint8_t>(info[at] >> 5);
        e.selector = static_cast<AppSelector>(info[at] & 0x07);
        e.protocol = static_cast<uint16_t>(info[at + 1] << 8 | info[at + 2]);
        if (e.selector == AppSelector::Dscp && e.protocol > kDcbxMaxDscp)
            failAt(kSubtypeAppPriority, at + 1,
                   fmt::format("entry {} maps DSCP {}, above {}", k, e.protocol, kDcbxMaxDscp));
        a.entries.push_back(e);
    }
    return a;
}

bool isDcbxTlv(const Oui& oui, uint8_t subtype)
{
    if (oui == kIeee8021Oui)
        return subtype >= kSubtypeEtsConfig && subtype <= kSubtypeAppPriority;
    return oui == kCeeDcbxOui && subtype == kSubtypeCeeDcbx;
}

std::optional<DcbxTlv> decodeDcbxTlv(const Oui& oui, uint8_t subtype, std::span<const uint8_t> info)
{
    if (oui == kCeeDcbxOui) {
        if (subtype != kSubtypeCeeDcbx)
            throw DecodeError(fmt::format("TLV {} subtype {}: an unknown CEE DCBX subtype (nicd "
                                          "decodes {})",
                                          ouiText(oui), subtype, kSubtypeCeeDcbx));
        return decodeCeeDcbx(info);
    }
    if (oui != kIeee8021Oui)
        return std::nullopt;
    switch (subtype) {
    case kSubtypeEtsConfig:
        return decodeEtsConfig(info);
    case kSubtypeEtsRecommendation:
        return decodeEtsRecommendation(info);
    case kSubtypePfcConfig:
        return decodePfcConfig(info);
    case kSubtypeAppPriority:
        return decodeAppPriority(info);
    default:
        throw DecodeError(fmt::format("TLV {} subtype {}: an unknown DCBX subtype (nicd decodes "
                                      "{}-{})",
                                      ouiText(oui), subtype, kSubtypeEtsConfig,
                                      kSubtypeAppPriority));
    }
}

SwitchDcb foldDcbxTlvs(std::span<const OrgTlv> tlvs)
{
    std::map<std::pair<Oui, uint8_t>, size_t> sent;
    for (const OrgTlv& t : tlvs)
        if (isDcbxTlv(t.oui, t.subtype))
            ++sent[{t.oui, t.subtype}];

    SwitchDcb out;
    for (const OrgTlv& t : tlvs) {
        if (!isDcbxTlv(t.oui, t.subtype))
            continue;
        size_t& times = sent[{t.oui, t.subtype}];
        if (times > 1) {
            out.errors.push_back(
                {t.oui, t.subtype,
                 fmt::format("{}: sent {} times in one advertisement; none of them is used",
                             tlvName(t.oui, t.subtype), times)});
            times = 0; // said once; the other copies are skipped
            continue;
        }
        if (times == 0)
            continue;
        try {
            if (auto v = decodeDcbxTlv(t.oui, t.subtype, t.info))
                std::visit(Store{out}, std::move(*v));
        } catch (const DecodeError& e) {
            out.errors.push_back({t.oui, t.subtype, e.what()});
        }
    }
    return out;
}

} // namespace nicd::neighbor
