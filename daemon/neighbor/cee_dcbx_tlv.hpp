// Pure decoding of the pre-standard CEE DCBX TLV (DCBX v1.01, OUI 00-1B-21, subtype 2) that
// switches running "DCBX CEE" advertise instead of IEEE 802.1Qaz's. It is one organisation TLV
// whose information string is a run of sub-TLVs (the same 2-byte type<<9|length header as LLDP);
// nicd reads the Priority Group (2) and PFC (3) sub-TLVs, which say what the IEEE ETS and PFC TLVs
// say, and skips the others (control, application, legacy). Layouts: openlldp
// include/tlv_dcbx.h, Linux ice_dcb.h (struct ice_cee_feat_tlv).
// Throws plugin::sdk::DecodeError, naming the byte, on a sub-TLV it cannot trust.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>

namespace nicd::neighbor {

// The 4 bytes that open each CEE feature sub-TLV: versions and the enable/willing/error flags.
struct CeeFeature {
    uint8_t oper_version = 0;
    uint8_t max_version = 0;
    bool enabled = false; // the switch runs this feature
    bool willing = false; // and would take its peer's configuration
    bool error = false;   // the switch found a mismatch with its peer

    bool operator==(const CeeFeature&) const = default;
};

inline constexpr uint8_t kCeeStrictGroup = 15; // PGID 15: strict priority, no bandwidth share

// Priority Group sub-TLV (type 2): each priority's group (0-7, or 15 strict) and each group's
// share of the bandwidth in percent.
struct CeePriorityGroups {
    CeeFeature feature;
    std::array<uint8_t, 8> priority_group{};  // by priority
    std::array<uint8_t, 8> group_bandwidth{}; // by group, percent
    uint8_t num_tcs = 0;                      // traffic classes the switch supports

    bool operator==(const CeePriorityGroups&) const = default;
};

// PFC sub-TLV (type 3): bit n of the bitmap = PFC on priority n.
struct CeePfc {
    CeeFeature feature;
    uint8_t enabled_bitmap = 0;
    uint8_t num_tcs = 0;

    bool operator==(const CeePfc&) const = default;
};

struct CeeDcbx {
    std::optional<CeePriorityGroups> priority_groups;
    std::optional<CeePfc> pfc;

    bool operator==(const CeeDcbx&) const = default;
};

// The information string of an OUI 00-1B-21 subtype 2 TLV (the bytes after the subtype). Byte
// numbers in errors count from its first byte, as lldpcli prints the TLV's value. Throws
// plugin::sdk::DecodeError on a truncated sub-TLV header, a sub-TLV longer than what is left, a
// PG or PFC sub-TLV of the wrong length or sent twice, a group number 8-14 or a share above 100.
CeeDcbx decodeCeeDcbx(std::span<const uint8_t> info);

} // namespace nicd::neighbor
