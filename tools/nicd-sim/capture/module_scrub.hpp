// A transceiver's EEPROM says which physical module it is (and so, through a vendor's records,
// who bought it): a capture keeps what nicd decodes (identifier, status, DOM values and flags,
// thresholds, the layout's capability bytes, vendor name and part number, which name a product)
// and replaces or clears what identifies one unit or is the vendor's or user's own. The image is
// nicd's blob layout (prefailure/module_eeprom.hpp), whose identifier byte gives the layout
// (prefailure/module_layout.hpp's layoutOf, the one nicd decodes with); offsets below are the
// blob's:
//
//              serial (16 ASCII)  date code's lot  cleared (0x00)                   checksums
//   SFF-8636   196-211            218-219          lower 119-126 (passwords),       191 (128-190),
//                                                  224-255 (page 00h vendor         223 (192-222)
//                                                  specific), 384-511 (page 02h:
//                                                  user EEPROM)
//   CMIS       166-181            188-189          lower 118-125 (passwords),       222 (128-221)
//                                                  223-255 (page 00h custom)
//   SFF-8472   68-83              90-91            A0h 96-255 (vendor specific,     63 (0-62),
//                                                  reserved), A2h 120-126 (vendor   95 (64-94)
//                                                  specific), A2h 128-255 (user
//                                                  EEPROM, vendor control)
//
// The serial becomes the IdentifierMap's fake (space padded), the lot code spaces (the date
// stays: it dates a batch, not a unit). A checksum that was right before is made right again;
// one that was wrong stays wrong (so a module that fails its own check still does in the
// replay). An image of a layout nicd does not know (or too short to hold the serial) may hold a
// serial anywhere: it is not kept, unless it holds no data at all (every byte 0x00 or 0xFF: no
// module).
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

// The image with its serial replaced by ids.serial(original), the lot code blanked and the
// vendor's and user's areas cleared (as far as the image reaches), checksums as above.
std::vector<uint8_t> scrubModuleImage(std::vector<uint8_t> blob, IdentifierMap& ids);

} // namespace nicd::sim::capture
