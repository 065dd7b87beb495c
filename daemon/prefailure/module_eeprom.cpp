// Module EEPROM decoding (SFF-8636, CMIS, SFF-8472) and the read plan that builds the image.
// Offsets are the specs' byte numbers: lower page 0-127, upper page 128-255 (SFF-8636 Rev 2.10,
// CMIS 5.2 §8, SFF-8472 Rev 12.4, SFF-8024 for identifiers and media codes). All values are
// big-endian. Choices the specs leave open are the decoder's, named where they are made:
//   - a threshold group whose four values are all zero was never programmed: left absent;
//   - a module that says its data is not ready (SFF-8636 byte 2 bit 0, SFF-8472 A2h byte 110
//     bit 0) or an SFF-8636 module with temperature 0x0000/0xFFFF (ethtool's own test for
//     "no monitors") has no DOM for this read;
//   - SFF-8472 externally calibrated modules get their calibration constants applied (values and
//     thresholds alike, as ethtool does);
//   - only advertised monitors are reported: SFF-8636 TX power needs page 00h byte 220 bit 2, CMIS
//     needs page 01h bytes 159/160; a flat CMIS module (no page 01h) has no DOM, as in ethtool;
//   - copper: SFF-8636 transmitter technology >= 0xA0; CMIS passive copper only (media type 0x03,
//     or media interface technology 0x0A/0x0B), since active copper cables do report monitors;
//   - CMIS lanes are the media lanes the module's applications can use (highest lane any
//     advertised application instance reaches), not always 8: unused lanes read zero and would
//     look like dark fibre;
//   - CMIS TX bias is multiplied by the page 01h byte 160 factor (CMIS 5.2 Table 8-82 "in 2 uA
//     increments, times the multiplier"; ethtool 6.11 divides instead).
#include "prefailure/module_eeprom.hpp"

#include "prefailure/decode_error.hpp"
#include "prefailure/module_layout.hpp"

#include <fmt/format.h>

namespace nicd::prefailure {

using namespace module_layout;

namespace {

constexpr size_t kLowerPageSize = kHalfPage;

void requireLowerPage(std::span<const uint8_t> lower_page)
{
    if (lower_page.size() < kLowerPageSize)
        throw DecodeError(fmt::format("module EEPROM lower page of {} bytes: {} expected",
                                      lower_page.size(), kLowerPageSize));
}

} // namespace

ModuleDom decodeModuleEeprom(std::span<const uint8_t> blob)
{
    if (blob.empty())
        throw DecodeError("module EEPROM of 0 bytes: no identifier at offset 0");
    uint8_t identifier = blob[0];
    if (identifier == kNoModuleLow || identifier == kNoModuleHigh)
        return withoutDom(identifier, ModuleStandard::Unknown);
    switch (layoutOf(identifier)) {
    case Layout::Sff8636:
        return sff8636::decode(blob);
    case Layout::Cmis:
        return cmis::decode(blob);
    case Layout::Sff8472:
        return sff8472::decode(blob);
    default:
        return withoutDom(identifier, ModuleStandard::Unknown);
    }
}

std::vector<EepromRead> eepromReadPlan(std::span<const uint8_t> lower_page)
{
    requireLowerPage(lower_page);
    switch (layoutOf(lower_page[0])) {
    case Layout::Sff8636:
        return sff8636::plan(lower_page);
    case Layout::Cmis:
        return cmis::plan(lower_page);
    case Layout::Sff8472:
        return sff8472::plan(lower_page);
    default:
        return {};
    }
}

size_t eepromBlobSize(std::span<const uint8_t> lower_page)
{
    requireLowerPage(lower_page);
    switch (layoutOf(lower_page[0])) {
    case Layout::Sff8636:
        return sff8636::blobSize(lower_page);
    case Layout::Cmis:
        return cmis::blobSize(lower_page);
    case Layout::Sff8472:
        return sff8472::blobSize(lower_page);
    default:
        return kLowerPageSize;
    }
}

} // namespace nicd::prefailure
