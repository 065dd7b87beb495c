// What the simulated switches say about their DCB in LLDP: the IEEE 802.1Qaz TLVs (ETS
// Configuration, PFC Configuration, Application Priority; OUI 00-80-C2) encoded as a switch sends
// them, the inverse of neighbor/dcbx_tlv.hpp's decoders, and the switch configuration that agrees
// with nicd's default host QoS ([provision] defaults: trust DSCP, PFC on priority 3, RoCE ToS 106
// -> DSCP 26 -> priority 3, CNP DSCP 48 -> priority 6).
#pragma once

#include "model/neighbor.hpp"
#include "neighbor/dcbx_tlv.hpp"

#include <cstdint>
#include <string_view>
#include <vector>

namespace nicd::sim {

// The information strings (the bytes after OUI and subtype). Each takes only what its decoder
// returns unchanged (a TC above 7, a share above 100 %, a capability above 8, a DSCP above 63 or
// max_tcs outside 1-8 throw SimError): decode(encode(x)) == x.
std::vector<uint8_t> encodeEtsConfig(const neighbor::EtsConfig& ets);     // 21 bytes
std::vector<uint8_t> encodePfcConfig(const neighbor::PfcConfig& pfc);     // 2 bytes
std::vector<uint8_t> encodeAppPriority(const neighbor::AppPriority& app); // 1 + 3n bytes

// PFC on priority 3 (bit n = priority n): the lossless priority of nicd's default QoS.
inline constexpr uint8_t kSwitchPfcBitmap = 0x08;

// The switch port's configuration that agrees with nicd's default host QoS: not willing (the
// switch decides), PFC capability 8 on `pfc_bitmap`; priority p in traffic class p, TC0 and TC3
// 50 % each by ETS, the other TCs strict priority; DSCP 26 (RoCE) -> priority 3, DSCP 48 (CNP)
// -> priority 6.
neighbor::PfcConfig switchPfc(uint8_t pfc_bitmap = kSwitchPfcBitmap);
neighbor::EtsConfig switchEts();
neighbor::AppPriority switchApp();

// The three TLVs of that configuration, in the order lldpd lists them (by subtype): ETS
// Configuration (9), PFC Configuration (11), Application Priority (12).
std::vector<OrgTlv> switchDcbxTlvs(uint8_t pfc_bitmap = kSwitchPfcBitmap);

// The PFC TLV of `pfc`, as OrgTlv.
OrgTlv pfcTlv(const neighbor::PfcConfig& pfc);

// "3,4" -> 0x18, "none" -> 0: a list of priorities 0-7 (each once, in any order); throws
// SimError on anything else.
uint8_t parsePriorities(std::string_view text);

} // namespace nicd::sim
