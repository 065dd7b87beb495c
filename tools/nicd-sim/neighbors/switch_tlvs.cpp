// The IEEE 802.1Qaz layouts, as neighbor/dcbx_tlv.cpp decodes them (802.1Q-2018 Annex D.2): byte
// numbers count from the first byte of the information string; bit 7 is the most significant.
#include "neighbors/switch_tlvs.hpp"

#include "sim.hpp"

#include <fmt/format.h>

#include <charconv>

namespace nicd::sim {

using neighbor::AppPriority;
using neighbor::AppSelector;
using neighbor::EtsConfig;
using neighbor::PfcConfig;
using neighbor::Tsa;

namespace {

constexpr uint8_t kRoceDscp = 26; // ToS 106 >> 2
constexpr uint8_t kCnpDscp = 48;
constexpr uint8_t kRocePriority = 3;
constexpr uint8_t kCnpPriority = 6;

} // namespace

std::vector<uint8_t> encodeEtsConfig(const EtsConfig& ets)
{
    if (ets.max_tcs < 1 || ets.max_tcs > 8)
        throw SimError(fmt::format("ETS: {} traffic classes, want 1 to 8", ets.max_tcs));
    std::vector<uint8_t> out(21, 0);
    // The wire's 3 bits hold 1-7, and 0 for 8.
    out[0] =
        static_cast<uint8_t>((ets.willing ? neighbor::kDcbxWillingBit : 0) |
                             (ets.cbs ? neighbor::kDcbxSecondFlagBit : 0) | (ets.max_tcs & 0x07));
    const auto& t = ets.tables;
    for (size_t p = 0; p < 8; ++p) {
        if (t.priority_tc[p] > neighbor::kDcbxMaxTc)
            throw SimError(fmt::format("ETS: priority {} in traffic class {}, above {}", p,
                                       t.priority_tc[p], neighbor::kDcbxMaxTc));
        out[1 + p / 2] |=
            static_cast<uint8_t>(p % 2 == 0 ? t.priority_tc[p] << 4 : t.priority_tc[p]);
    }
    for (size_t tc = 0; tc < 8; ++tc) {
        if (t.tc_bandwidth[tc] > neighbor::kDcbxMaxPercent)
            throw SimError(fmt::format("ETS: traffic class {} given {} %", tc, t.tc_bandwidth[tc]));
        out[5 + tc] = t.tc_bandwidth[tc];
        out[13 + tc] = static_cast<uint8_t>(t.tc_tsa[tc]);
    }
    return out;
}

std::vector<uint8_t> encodePfcConfig(const PfcConfig& pfc)
{
    if (pfc.capability > neighbor::kDcbxMaxPfcCapability)
        throw SimError(fmt::format("PFC capability {}, above {}", pfc.capability,
                                   neighbor::kDcbxMaxPfcCapability));
    return {static_cast<uint8_t>((pfc.willing ? neighbor::kDcbxWillingBit : 0) |
                                 (pfc.mbc ? neighbor::kDcbxSecondFlagBit : 0) | pfc.capability),
            pfc.enabled_bitmap};
}

std::vector<uint8_t> encodeAppPriority(const AppPriority& app)
{
    std::vector<uint8_t> out{0}; // reserved
    for (const auto& e : app.entries) {
        if (e.priority > 7)
            throw SimError(fmt::format("application priority {}, above 7", e.priority));
        if (static_cast<uint8_t>(e.selector) > 7)
            throw SimError("application selector above 7");
        if (e.selector == AppSelector::Dscp && e.protocol > neighbor::kDcbxMaxDscp)
            throw SimError(fmt::format("DSCP {}, above {}", e.protocol, neighbor::kDcbxMaxDscp));
        out.push_back(static_cast<uint8_t>(e.priority << 5 | static_cast<uint8_t>(e.selector)));
        out.push_back(static_cast<uint8_t>(e.protocol >> 8));
        out.push_back(static_cast<uint8_t>(e.protocol & 0xFF));
    }
    return out;
}

PfcConfig switchPfc(uint8_t pfc_bitmap)
{
    PfcConfig p;
    p.willing = false;
    p.mbc = false;
    p.capability = neighbor::kDcbxMaxPfcCapability;
    p.enabled_bitmap = pfc_bitmap;
    return p;
}

EtsConfig switchEts()
{
    EtsConfig e;
    e.willing = false;
    e.cbs = false;
    e.max_tcs = 8;
    for (uint8_t p = 0; p < 8; ++p) {
        e.tables.priority_tc[p] = p;
        e.tables.tc_bandwidth[p] = 0;
        e.tables.tc_tsa[p] = Tsa::Strict;
    }
    for (uint8_t tc : {uint8_t{0}, kRocePriority}) {
        e.tables.tc_bandwidth[tc] = 50;
        e.tables.tc_tsa[tc] = Tsa::Ets;
    }
    return e;
}

AppPriority switchApp()
{
    return {{{kRocePriority, AppSelector::Dscp, kRoceDscp},
             {kCnpPriority, AppSelector::Dscp, kCnpDscp}}};
}

OrgTlv pfcTlv(const PfcConfig& pfc)
{
    return {neighbor::kIeee8021Oui, neighbor::kSubtypePfcConfig, encodePfcConfig(pfc)};
}

std::vector<OrgTlv> switchDcbxTlvs(uint8_t pfc_bitmap)
{
    return {
        {neighbor::kIeee8021Oui, neighbor::kSubtypeEtsConfig, encodeEtsConfig(switchEts())},
        pfcTlv(switchPfc(pfc_bitmap)),
        {neighbor::kIeee8021Oui, neighbor::kSubtypeAppPriority, encodeAppPriority(switchApp())},
    };
}

uint8_t parsePriorities(std::string_view text)
{
    if (text == "none")
        return 0;
    uint8_t map = 0;
    std::string_view rest = text;
    while (true) {
        const auto comma = rest.find(',');
        const auto item = rest.substr(0, comma);
        unsigned p = 0;
        auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), p);
        if (item.empty() || ec != std::errc() || end != item.data() + item.size() || p > 7 ||
            (map >> p) & 1)
            throw SimError(fmt::format("'{}': want priorities 0-7, each once, comma-separated "
                                       "(3,4), or none",
                                       text));
        map |= static_cast<uint8_t>(1u << p);
        if (comma == std::string_view::npos)
            return map;
        rest.remove_prefix(comma + 1);
    }
}

} // namespace nicd::sim
