// A transceiver's vendor serial number identifies one physical module (and so, through a vendor's
// records, its buyer): a capture replaces it in the module EEPROM image it carries. The image is
// nicd's blob layout (signals/module_eeprom.hpp); the serial is 16 ASCII bytes, space padded:
//   SFF-8636 (0x0C, 0x0D, 0x11)  page 00h bytes 196-211; CC_EXT (byte 223) sums bytes 192-222
//   CMIS (0x18 ... 0x20)         page 00h bytes 166-181; its checksum (byte 222) sums 128-221
//   SFF-8472 (0x03)              A0h bytes 68-83; CC_EXT (byte 95) sums bytes 64-94
// A checksum that was right before is made right again; one that was wrong stays wrong (so a
// module that fails its own check still does in the replay). Vendor name, part number and the
// date code stay: they name a product, not a module.
#pragma once

#include "capture/identifier_map.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace nicd::sim::capture {

// The serial number the image holds (trailing spaces removed); empty for an image too short,
// without a module, or of a layout it does not know.
std::string moduleSerial(const std::vector<uint8_t>& blob);

// The image with its serial replaced by ids.serial(original), padded with spaces to 16 bytes.
std::vector<uint8_t> scrubModuleSerial(std::vector<uint8_t> blob, IdentifierMap& ids);

} // namespace nicd::sim::capture
