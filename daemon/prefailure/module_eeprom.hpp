// Decodes a transceiver's EEPROM image into its diagnostics (DOM) in SI units, and plans the page
// reads that build that image from a live module. Pure: no I/O, the caller brings the bytes.
//
// The image ("blob") is nicd's capture and replay format, one layout per standard:
//   SFF-8636/8436 (identifier 0x0C, 0x0D, 0x11): 640 bytes, lower page 0-127, then the upper
//     halves (bytes 128-255) of pages 00h, 01h, 02h and 03h; what `ethtool -m DEV raw on` writes
//     for mlx5. 256 bytes (lower + 00h) are accepted; then there are no thresholds.
//   CMIS (0x18, 0x19, 0x1B, 0x1E, 0x1F, 0x20): 768 bytes, lower page, then the upper halves of
//     pages 00h, 01h, 02h, 10h and 11h (bank 0); 256 bytes for a flat-memory module.
//   SFF-8472 (0x03): 512 bytes, A0h 0-255 then A2h 0-255.
// Anything else, or no module (byte 0 is 0x00 or 0xFF), decodes to standard Unknown.
#pragma once

#include "model/prefailure_readings.hpp"

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace nicd::prefailure {

// The module's diagnostics from its EEPROM image. Throws DecodeError when the image is empty or
// shorter than its identifier's layout needs; an unknown identifier is not an error.
ModuleDom decodeModuleEeprom(std::span<const uint8_t> blob);

// One read of ETHTOOL_MSG_MODULE_EEPROM_GET and where its bytes go in the blob. Each read stays in
// one half page (at most 128 bytes) and reads page 0 only below offset 128, as the kernel requires.
struct EepromRead {
    uint8_t i2c_address = 0x50; // 0x50 (A0h), 0x51 (A2h)
    uint8_t page = 0;
    uint8_t bank = 0;
    uint8_t offset = 0; // within the 256-byte page view: 0-127 lower, 128-255 upper
    uint8_t length = 0;
    size_t blob_offset = 0;

    bool operator==(const EepromRead&) const = default;
};

// Given the first 128 bytes of the module (i2c 0x50, page 0, offset 0), the further reads that
// fill the rest of the blob. Pages a layout has but the plan skips (SFF-8636 01h/02h, the pages of
// a flat module, A2h of an SFP without diagnostics) stay zero in the blob. Throws DecodeError when
// lower_page holds fewer than 128 bytes.
std::vector<EepromRead> eepromReadPlan(std::span<const uint8_t> lower_page);

// The size of the blob those reads fill, lower page included (128 for an unknown identifier).
size_t eepromBlobSize(std::span<const uint8_t> lower_page);

} // namespace nicd::prefailure
