// A transceiver's vendor serial number identifies one physical module (and so, through a vendor's
// records, its buyer): a capture replaces it in the module EEPROM image it carries. The image is
// nicd's blob layout (signals/module_eeprom.hpp), whose identifier byte gives the layout
// (signals/module_layout.hpp's layoutOf, the one nicd decodes with); the serial is 16 ASCII bytes,
// space padded:
//   SFF-8636  page 00h bytes 196-211; CC_EXT (byte 223) sums bytes 192-222
//   CMIS      page 00h bytes 166-181; its checksum (byte 222) sums 128-221
//   SFF-8472  A0h bytes 68-83; CC_EXT (byte 95) sums bytes 64-94
// A checksum that was right before is made right again; one that was wrong stays wrong (so a
// module that fails its own check still does in the replay). Vendor name, part number and the
// date code stay: they name a product, not a module. An image of a layout nicd does not know (or
// too short to hold the serial) may hold a serial anywhere: it is not kept, unless it holds no
// data at all (every byte 0x00 or 0xFF: no module).
#pragma once

#include "capture/identifier_map.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace nicd::sim::capture {

// The serial number the image holds (trailing spaces removed); empty for an image too short,
// without a module, or of a layout it does not know.
std::string moduleSerial(const std::vector<uint8_t>& blob);

// Whether the image can be kept once scrubbed: its layout is known and long enough to hold the
// serial's bytes and checksum, or it holds no data at all.
bool moduleImageScrubbable(const std::vector<uint8_t>& blob);

// The image with its serial replaced by ids.serial(original), padded with spaces to 16 bytes.
std::vector<uint8_t> scrubModuleSerial(std::vector<uint8_t> blob, IdentifierMap& ids);

} // namespace nicd::sim::capture
