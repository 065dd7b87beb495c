// What the three module EEPROM standards share (module_eeprom.cpp dispatches to them): the blob
// layout constants, SFF-8024 identifiers, a bounds-checked big-endian view of the blob, the
// units every standard encodes its diagnostics in, and each standard's decoder, read plan and
// blob size. Internal to prefailure/.
#pragma once

#include "model/prefailure_readings.hpp"
#include "prefailure/decode_error.hpp"
#include "prefailure/module_eeprom.hpp"

#include <fmt/format.h>

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace nicd::prefailure::module_layout {

constexpr size_t kHalfPage = 128;
constexpr size_t kUpperStart = 128; // first byte of an upper page, as the specs number it
constexpr uint8_t kI2cA0 = 0x50;
constexpr uint8_t kI2cA2 = 0x51;
constexpr uint8_t kNoModuleLow = 0x00;
constexpr uint8_t kNoModuleHigh = 0xFF;

constexpr double kCelsiusPerLsb = 1.0 / 256.0;
constexpr double kVoltsPerLsb = 100e-6;
constexpr double kAmperesPerLsb = 2e-6;
constexpr double kWattsPerLsb = 0.1e-6; // 0.1 uW

enum class Layout { Unknown, Sff8636, Cmis, Sff8472 };

inline Layout layoutOf(uint8_t identifier)
{
    switch (identifier) {
    case 0x03: // SFP/SFP+
        return Layout::Sff8472;
    case 0x0C: // QSFP
    case 0x0D: // QSFP+
    case 0x11: // QSFP28
        return Layout::Sff8636;
    case 0x18: // QSFP-DD
    case 0x19: // OSFP
    case 0x1B: // DSFP
    case 0x1E: // QSFP+ with CMIS
    case 0x1F: // SFP-DD
    case 0x20: // SFP+ with CMIS
        return Layout::Cmis;
    default:
        return Layout::Unknown;
    }
}

inline const char* layoutName(Layout layout)
{
    switch (layout) {
    case Layout::Sff8636:
        return "SFF-8636";
    case Layout::Cmis:
        return "CMIS";
    case Layout::Sff8472:
        return "SFF-8472";
    default:
        return "module";
    }
}

inline void requireSize(Layout layout, size_t have, size_t need, const char* why = nullptr)
{
    if (have >= need)
        return;
    throw DecodeError(fmt::format("{} EEPROM of {} bytes: at least {} expected{}{}",
                                  layoutName(layout), have, need, why ? " " : "", why ? why : ""));
}

// A bounds-checked big-endian view of the blob; a read past its end is a DecodeError naming the
// offset (the size checks up front make that a bug, not a module fault).
class Image {
public:
    Image(std::span<const uint8_t> bytes, Layout layout) : bytes_(bytes), layout_(layout) {}

    uint8_t u8(size_t offset) const
    {
        if (offset >= bytes_.size())
            throw DecodeError(fmt::format("{} EEPROM: offset {} past the end ({} bytes)",
                                          layoutName(layout_), offset, bytes_.size()));
        return bytes_[offset];
    }
    uint16_t u16(size_t offset) const { return uint16_t(u8(offset) << 8 | u8(offset + 1)); }
    int16_t s16(size_t offset) const { return std::bit_cast<int16_t>(u16(offset)); }
    uint32_t u32(size_t offset) const { return uint32_t(u16(offset)) << 16 | u16(offset + 2); }
    bool bit(size_t offset, unsigned bit) const { return (u8(offset) >> bit) & 1U; }
    size_t size() const { return bytes_.size(); }

private:
    std::span<const uint8_t> bytes_;
    Layout layout_;
};

inline std::optional<double> finite(double value)
{
    if (!std::isfinite(value))
        return std::nullopt;
    return value;
}

inline double celsius(uint16_t raw)
{
    return std::bit_cast<int16_t>(raw) * kCelsiusPerLsb;
}
inline double volts(uint16_t raw)
{
    return raw * kVoltsPerLsb;
}
inline double amperes(uint16_t raw)
{
    return raw * kAmperesPerLsb;
}
inline double watts(uint16_t raw)
{
    return raw * kWattsPerLsb;
}

// The four limits at offset (high alarm, low alarm, high warning, low warning), each converted by
// toSi from its raw 16 bits. All four zero: the module never set them.
template <typename ToSi> DomThresholds thresholdsAt(const Image& image, size_t offset, ToSi toSi)
{
    std::array<uint16_t, 4> raw{};
    for (size_t i = 0; i < raw.size(); ++i)
        raw[i] = image.u16(offset + 2 * i);
    if (raw == std::array<uint16_t, 4>{})
        return {};
    return {finite(toSi(raw[0])), finite(toSi(raw[1])), finite(toSi(raw[2])), finite(toSi(raw[3]))};
}

inline ModuleDom withoutDom(uint8_t identifier, ModuleStandard standard)
{
    ModuleDom dom;
    dom.identifier = identifier;
    dom.standard = standard;
    return dom;
}

// The upper half of page (bank 0) at i2c 0x50, into blob slot * 128 + 128.
inline EepromRead upperPage(uint8_t page, size_t slot)
{
    return {
        kI2cA0, page, 0, uint8_t(kUpperStart), uint8_t(kHalfPage), slot * kHalfPage + kUpperStart};
}

// Each standard: its decoder over the whole blob, the reads after the lower page that fill the
// blob, and the blob's size.
namespace sff8636 {
ModuleDom decode(std::span<const uint8_t> blob);
std::vector<EepromRead> plan(std::span<const uint8_t> lower_page);
size_t blobSize(std::span<const uint8_t> lower_page);
} // namespace sff8636
namespace cmis {
ModuleDom decode(std::span<const uint8_t> blob);
std::vector<EepromRead> plan(std::span<const uint8_t> lower_page);
size_t blobSize(std::span<const uint8_t> lower_page);
} // namespace cmis
namespace sff8472 {
ModuleDom decode(std::span<const uint8_t> blob);
std::vector<EepromRead> plan(std::span<const uint8_t> lower_page);
size_t blobSize(std::span<const uint8_t> lower_page);
} // namespace sff8472

} // namespace nicd::prefailure::module_layout
