// Pure decoding of what a switch advertises about its DCB in LLDP: the IEEE 802.1Qaz organisation
// TLVs (OUI 00-80-C2: ETS Configuration 9, ETS Recommendation 10, PFC Configuration 11,
// Application Priority 12; IEEE 802.1Q-2018 Annex D.2) and the pre-standard CEE DCBX TLV
// (cee_dcbx_tlv.hpp), from the (OUI, subtype, information string) triples lldpd hands over
// (lldpctl_k_custom_tlv_oui, _oui_subtype, _oui_info_string). No I/O: the caller reads lldpd.
//
// A decoder reports what the switch says, even where it is odd (ETS shares not summing to 100, a
// TC beyond the switch's own maximum, PFC on more priorities than its capability, reserved TSA or
// selector code points), and throws plugin::sdk::DecodeError only on what it cannot represent: a
// wrong length, a value its field cannot hold (a TC above 7, a share above 100 %, a PFC capability
// above 8, a DSCP above 63), an unknown subtype. The error names the TLV and the byte, counted from
// the first byte of the information string (the byte after the subtype), as lldpcli prints the
// TLV's value. foldDcbxTlvs gathers one neighbour's TLVs into a SwitchDcb and keeps each TLV's
// error beside the rest: a malformed TLV is shown, never fatal.
#pragma once

#include "model/neighbor.hpp"
#include "neighbor/cee_dcbx_tlv.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

namespace nicd::neighbor {

using nicd::Oui;
inline constexpr Oui kIeee8021Oui{0x00, 0x80, 0xC2}; // IEEE 802.1
inline constexpr Oui kCeeDcbxOui{0x00, 0x1B, 0x21};  // CEE DCBX (Intel's OUI)

inline constexpr uint8_t kSubtypeEtsConfig = 9;
inline constexpr uint8_t kSubtypeEtsRecommendation = 10;
inline constexpr uint8_t kSubtypePfcConfig = 11;
inline constexpr uint8_t kSubtypeAppPriority = 12;
inline constexpr uint8_t kSubtypeCeeDcbx = 2;

// The flags and limits of the 802.1Qaz information strings: what the decoders below check, and
// what nicd-sim's switches encode with.
inline constexpr uint8_t kDcbxWillingBit = 0x80;
inline constexpr uint8_t kDcbxSecondFlagBit = 0x40; // ETS: CBS; PFC: MBC
inline constexpr uint8_t kDcbxMaxTc = 7;
inline constexpr uint8_t kDcbxMaxPercent = 100;
inline constexpr uint8_t kDcbxMaxPfcCapability = 8;
inline constexpr uint8_t kDcbxMaxDscp = 63;

// Transmission selection algorithm of a traffic class (802.1Q Table 8-6). 3-254 are reserved:
// kept as the switch sent them.
enum class Tsa : uint8_t { Strict = 0, CreditBasedShaper = 1, Ets = 2, Vendor = 255 };

// The tables that ETS Configuration and ETS Recommendation share.
struct EtsTables {
    std::array<uint8_t, 8> priority_tc{};  // by priority: its traffic class, 0-7
    std::array<uint8_t, 8> tc_bandwidth{}; // by traffic class: percent, 0-100
    std::array<Tsa, 8> tc_tsa{};           // by traffic class

    bool operator==(const EtsTables&) const = default;
};

struct EtsConfig {
    bool willing = false; // the switch would take its peer's ETS configuration
    bool cbs = false;     // it supports the credit-based shaper
    uint8_t max_tcs = 8;  // traffic classes it supports, 1-8 (the wire's 0 means 8)
    EtsTables tables;

    bool operator==(const EtsConfig&) const = default;
};

// What the switch recommends its peer use (no flags: the first byte is reserved).
struct EtsRecommendation {
    EtsTables tables;

    bool operator==(const EtsRecommendation&) const = default;
};

struct PfcConfig {
    bool willing = false;
    bool mbc = false;           // MACsec bypass capability
    uint8_t capability = 0;     // priorities that may have PFC at once, 0-8
    uint8_t enabled_bitmap = 0; // bit n = PFC on priority n

    bool enabled(uint8_t priority) const
    {
        return priority < 8 && (enabled_bitmap >> priority) & 1;
    }
    bool operator==(const PfcConfig&) const = default;
};

// Application Priority selectors (802.1Q Table D-9); 0, 6 and 7 are reserved, kept as sent.
enum class AppSelector : uint8_t {
    Ethertype = 1,
    StreamPort = 2,   // TCP or SCTP port
    DatagramPort = 3, // UDP or DCCP port (RoCEv2: 4791)
    AnyPort = 4,      // TCP, SCTP, UDP or DCCP port
    Dscp = 5,         // the protocol ID is a DSCP, 0-63
};

struct AppEntry {
    uint8_t priority = 0; // 0-7
    AppSelector selector = AppSelector::Ethertype;
    uint16_t protocol = 0;

    bool operator==(const AppEntry&) const = default;
};

struct AppPriority {
    std::vector<AppEntry> entries; // in the order sent

    bool operator==(const AppPriority&) const = default;
};

// The information string (bytes after OUI and subtype) of each TLV; each throws DecodeError.
EtsConfig decodeEtsConfig(std::span<const uint8_t> info);                 // 21 bytes
EtsRecommendation decodeEtsRecommendation(std::span<const uint8_t> info); // 21 bytes
PfcConfig decodePfcConfig(std::span<const uint8_t> info);                 // 2 bytes
AppPriority decodeAppPriority(std::span<const uint8_t> info);             // 1 + 3n bytes

using DcbxTlv = std::variant<EtsConfig, EtsRecommendation, PfcConfig, AppPriority, CeeDcbx>;

// The subtypes above of their OUIs: the TLVs foldDcbxTlvs decodes.
bool isDcbxTlv(const Oui& oui, uint8_t subtype);

// One TLV, by OUI and subtype: nullopt for another OUI; throws DecodeError for another subtype of
// 00-80-C2 or 00-1B-21 and for a malformed TLV.
std::optional<DcbxTlv> decodeDcbxTlv(const Oui& oui, uint8_t subtype,
                                     std::span<const uint8_t> info);

// One organisation TLV of a neighbour, as lldpd hands it over (model/neighbor.hpp).
using nicd::OrgTlv;

// A TLV that could not be used, and why (the DecodeError's message, or that it came twice).
struct TlvError {
    Oui oui{};
    uint8_t subtype = 0;
    std::string message;

    bool operator==(const TlvError&) const = default;
};

// What one neighbour advertised; each TLV it did not send (or sent malformed) is nullopt.
struct SwitchDcb {
    std::optional<EtsConfig> ets;
    std::optional<EtsRecommendation> ets_recommendation;
    std::optional<PfcConfig> pfc;
    std::optional<AppPriority> app;
    std::optional<CeeDcbx> cee;
    std::vector<TlvError> errors; // in the order met

    bool advertisesDcb() const { return ets || ets_recommendation || pfc || app || cee; }
    bool operator==(const SwitchDcb&) const = default;
};

// Folds a neighbour's TLVs into what it advertised. Other OUIs and the other 802.1 TLVs (VLANs,
// link aggregation, ...) are skipped. A malformed TLV is left out with its error kept; a TLV sent
// twice is left out altogether (nicd cannot tell which copy the switch runs), with an error.
// Never throws DecodeError.
SwitchDcb foldDcbxTlvs(std::span<const OrgTlv> tlvs);

// "00-80-C2" for an OUI.
std::string ouiText(const Oui& oui);

} // namespace nicd::neighbor
