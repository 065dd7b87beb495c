// FEC statistics as the kernel and ethtool report them, decoded by pure functions: the attributes
// of an ETHTOOL_MSG_FEC_GET_REPLY, and the text of `ethtool --json -I --show-fec <netdev>`. Both
// throw DecodeError on input they cannot trust. A counter the kernel left out, or sent with an
// empty payload (the driver does not count it), stays absent: never 0.
#pragma once

#include "model/prefailure_readings.hpp"
#include "prefailure/decode_error.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace nicd::prefailure {

// The name ethtool prints for an ETHTOOL_A_FEC_ACTIVE link-mode bit: "Off" for FEC_NONE (the link
// runs without FEC; ethtool renames the kernel's "None" to "Off"), "RS", "BaseR", "LLRS";
// any other bit "BIT<n>".
std::string fecModeName(uint32_t link_mode_bit);

// Decodes the attributes of one ETHTOOL_MSG_FEC_GET_REPLY (the bytes after the genlmsghdr):
// the device name from the header nest, the active mode (empty when the kernel named none) and
// the statistics nest, whose u64 arrays hold the total first and then one value per lane.
// Unknown attributes, padding and the error histogram are skipped.
FecStats decodeFecReply(std::span<const uint8_t> attrs);

// Parses what `ethtool --json -I --show-fec <netdev>` prints: a JSON array with one object per
// device. Picks the object whose "ifname" is `netdev`, or the only one. The active mode is the
// one ethtool printed ("Off", "RS", "BaseR", "LLRS", ...), except that ethtool's "None" (the
// kernel named no active mode) becomes empty, as decodeFecReply gives it.
FecStats parseFecJson(std::string_view text, std::string_view netdev);

} // namespace nicd::prefailure
