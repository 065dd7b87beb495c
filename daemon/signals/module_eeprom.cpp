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
#include "signals/module_eeprom.hpp"

#include "signals/decode_error.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <optional>

namespace nicd::signals {

namespace {

// ---- Layouts and units shared by the three standards ----

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

Layout layoutOf(uint8_t identifier)
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

const char* layoutName(Layout layout)
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

void requireSize(Layout layout, size_t have, size_t need, const char* why = nullptr)
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

std::optional<double> finite(double value)
{
    if (!std::isfinite(value))
        return std::nullopt;
    return value;
}

double celsius(uint16_t raw)
{
    return std::bit_cast<int16_t>(raw) * kCelsiusPerLsb;
}
double volts(uint16_t raw)
{
    return raw * kVoltsPerLsb;
}
double amperes(uint16_t raw)
{
    return raw * kAmperesPerLsb;
}
double watts(uint16_t raw)
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

ModuleDom withoutDom(uint8_t identifier, ModuleStandard standard)
{
    ModuleDom dom;
    dom.identifier = identifier;
    dom.standard = standard;
    return dom;
}

// ---- SFF-8636 (QSFP+, QSFP28) ----

namespace sff8636 {

constexpr size_t kMinSize = 2 * kHalfPage;  // lower page + page 00h
constexpr size_t kFullSize = 5 * kHalfPage; // + pages 01h, 02h, 03h
constexpr size_t kLanes = 4;

// Lower page
constexpr size_t kStatus = 2;
constexpr unsigned kFlatMemoryBit = 2;
constexpr unsigned kDataNotReadyBit = 0;
constexpr size_t kLosFlags = 3;     // RX LOS lane n = bit n-1 (TX LOS in bits 7..4)
constexpr size_t kTxFaultFlags = 4; // TX fault lane n = bit n-1
constexpr size_t kTemperature = 22;
constexpr size_t kSupply = 26;
constexpr size_t kRxPower = 34;
constexpr size_t kTxBias = 42;
constexpr size_t kTxPower = 50;
constexpr uint16_t kTemperatureUnset = 0x0000;
constexpr uint16_t kTemperatureBlank = 0xFFFF;

// Upper page 00h (blob offset = byte)
constexpr size_t kTransmitterTechnology = 147; // bits 7..4; 0xA0 and up are copper
constexpr uint8_t kCopperTechnology = 0xA0;
constexpr size_t kDiagnosticType = 220;
constexpr unsigned kTxPowerMonitoredBit = 2;

// Upper page 03h (blob offset = 3 * 128 + byte)
constexpr size_t kSlot00 = 0;
constexpr size_t kSlot03 = 3;
constexpr size_t kPage03 = kSlot03 * kHalfPage;
constexpr size_t kTemperatureThresholds = kPage03 + 128;
constexpr size_t kSupplyThresholds = kPage03 + 144;
constexpr size_t kRxPowerThresholds = kPage03 + 176;
constexpr size_t kTxBiasThresholds = kPage03 + 184;
constexpr size_t kTxPowerThresholds = kPage03 + 192;

bool hasDom(const Image& image)
{
    if (image.u8(kTransmitterTechnology) >= kCopperTechnology)
        return false;
    if (image.bit(kStatus, kDataNotReadyBit))
        return false;
    uint16_t temperature = image.u16(kTemperature);
    return temperature != kTemperatureUnset && temperature != kTemperatureBlank;
}

std::vector<ModuleLane> lanes(const Image& image, bool tx_power)
{
    std::vector<ModuleLane> out(kLanes);
    for (size_t i = 0; i < kLanes; ++i) {
        ModuleLane& lane = out[i];
        lane.tx_bias_amperes = amperes(image.u16(kTxBias + 2 * i));
        lane.rx_power_watts = watts(image.u16(kRxPower + 2 * i));
        if (tx_power)
            lane.tx_power_watts = watts(image.u16(kTxPower + 2 * i));
        lane.rx_los = image.bit(kLosFlags, unsigned(i));
        lane.tx_fault = image.bit(kTxFaultFlags, unsigned(i));
    }
    return out;
}

void thresholds(const Image& image, bool tx_power, ModuleDom& dom)
{
    dom.temperature = thresholdsAt(image, kTemperatureThresholds, celsius);
    dom.supply = thresholdsAt(image, kSupplyThresholds, volts);
    dom.rx_power = thresholdsAt(image, kRxPowerThresholds, watts);
    dom.tx_bias = thresholdsAt(image, kTxBiasThresholds, amperes);
    if (tx_power)
        dom.tx_power = thresholdsAt(image, kTxPowerThresholds, watts);
}

ModuleDom decode(std::span<const uint8_t> blob)
{
    requireSize(Layout::Sff8636, blob.size(), kMinSize);
    Image image(blob, Layout::Sff8636);
    ModuleDom dom = withoutDom(blob[0], ModuleStandard::Sff8636);
    if (!hasDom(image))
        return dom;
    dom.has_dom = true;
    dom.temperature_celsius = celsius(image.u16(kTemperature));
    dom.supply_volts = volts(image.u16(kSupply));
    bool tx_power = image.bit(kDiagnosticType, kTxPowerMonitoredBit);
    dom.lanes = lanes(image, tx_power);
    bool page03 = !image.bit(kStatus, kFlatMemoryBit) && blob.size() >= kFullSize;
    if (page03)
        thresholds(image, tx_power, dom);
    return dom;
}

} // namespace sff8636

// ---- CMIS (QSFP-DD, OSFP, QSFP112, ...) ----

namespace cmis {

constexpr size_t kFlatSize = 2 * kHalfPage;  // lower page + page 00h
constexpr size_t kPagedSize = 6 * kHalfPage; // + pages 01h, 02h, 10h, 11h
constexpr size_t kMaxLanes = 8;              // one bank

// Blob offset of byte b (128-255) of an upper page: slot * 128 + b.
constexpr size_t kSlot00 = 0;
constexpr size_t kSlot01 = 1;
constexpr size_t kSlot02 = 2;
constexpr size_t kSlot10 = 3;
constexpr size_t kSlot11 = 4;
constexpr size_t kPage01 = kSlot01 * kHalfPage;
constexpr size_t kPage02 = kSlot02 * kHalfPage;
constexpr size_t kPage11 = kSlot11 * kHalfPage;

// Lower page
constexpr size_t kMemoryModel = 2;
constexpr unsigned kFlatMemoryBit = 7;
constexpr size_t kTemperature = 14;
constexpr size_t kSupply = 16;
constexpr size_t kMediaType = 85; // SFF-8024 Table 4-5
constexpr uint8_t kMediaPassiveCopper = 0x03;
constexpr size_t kAppDescriptors = 86; // 8 x {host id, media id, lane counts, host assign}
constexpr size_t kAppDescriptorSize = 4;
constexpr size_t kAppLaneCounts = 2; // bits 3..0: media lane count
constexpr uint8_t kMediaLaneCountMask = 0x0F;
constexpr size_t kApps = 8;
constexpr uint8_t kAppListEnd = 0xFF;
constexpr uint8_t kAppUndefined = 0x00;

// Upper page 00h
constexpr size_t kMediaTechnology = 212; // SFF-8024 Table 4-10: 0x0A/0x0B passive copper
constexpr uint8_t kTechCopperUnequalized = 0x0A;
constexpr uint8_t kTechCopperPassiveEqualized = 0x0B;

// Upper page 01h
constexpr size_t kModuleMonitors = kPage01 + 159;
constexpr unsigned kTemperatureMonitorBit = 0;
constexpr unsigned kSupplyMonitorBit = 1;
constexpr size_t kLaneMonitors = kPage01 + 160;
constexpr unsigned kTxBiasMonitorBit = 0;
constexpr unsigned kTxPowerMonitorBit = 1;
constexpr unsigned kRxPowerMonitorBit = 2;
constexpr unsigned kBiasMultiplierShift = 3; // bits 4..3: 0 x1, 1 x2, 2 x4, 3 reserved
constexpr uint8_t kBiasMultiplierMask = 0x03;
constexpr uint8_t kBiasMultiplierReserved = 0x03;
constexpr size_t kMediaLaneAssignment = kPage01 + 176; // one byte per application 1-8

// Upper page 02h
constexpr size_t kTemperatureThresholds = kPage02 + 128;
constexpr size_t kSupplyThresholds = kPage02 + 136;
constexpr size_t kTxPowerThresholds = kPage02 + 176;
constexpr size_t kTxBiasThresholds = kPage02 + 184;
constexpr size_t kRxPowerThresholds = kPage02 + 192;

// Upper page 11h, bank 0
constexpr size_t kTxFaultFlags = kPage11 + 135; // one bit per lane
constexpr size_t kRxLosFlags = kPage11 + 147;
constexpr size_t kTxPower = kPage11 + 154;
constexpr size_t kTxBias = kPage11 + 170;
constexpr size_t kRxPower = kPage11 + 186;

bool passiveCopper(const Image& image)
{
    uint8_t tech = image.u8(kMediaTechnology);
    return image.u8(kMediaType) == kMediaPassiveCopper || tech == kTechCopperUnequalized ||
           tech == kTechCopperPassiveEqualized;
}

// The highest media lane any advertised application instance uses: an application with N media
// lanes may start at each lane whose bit is set in its media lane assignment byte.
size_t mediaLanes(const Image& image)
{
    size_t lanes = 0;
    for (size_t app = 0; app < kApps; ++app) {
        size_t descriptor = kAppDescriptors + app * kAppDescriptorSize;
        uint8_t host_interface = image.u8(descriptor);
        if (host_interface == kAppListEnd || host_interface == kAppUndefined)
            break;
        size_t count = image.u8(descriptor + kAppLaneCounts) & kMediaLaneCountMask;
        uint8_t starts = image.u8(kMediaLaneAssignment + app);
        if (count == 0 || starts == 0)
            continue;
        size_t last_start = size_t(std::bit_width(starts)); // 1-based lane of the highest bit
        lanes = std::max(lanes, last_start + count - 1);
    }
    return lanes == 0 ? kMaxLanes : std::min(lanes, kMaxLanes);
}

// The TX bias unit factor, or nothing when the module gives the reserved code.
std::optional<double> biasMultiplier(const Image& image)
{
    uint8_t code = (image.u8(kLaneMonitors) >> kBiasMultiplierShift) & kBiasMultiplierMask;
    if (code == kBiasMultiplierReserved)
        return std::nullopt;
    return double(1U << code);
}

struct Monitors {
    bool temperature = false;
    bool supply = false;
    bool tx_power = false;
    bool rx_power = false;
    std::optional<double> bias_multiplier; // set: TX bias monitored, in this unit factor

    bool any() const { return temperature || supply || tx_power || rx_power || bias_multiplier; }
};

Monitors advertised(const Image& image)
{
    Monitors m;
    m.temperature = image.bit(kModuleMonitors, kTemperatureMonitorBit);
    m.supply = image.bit(kModuleMonitors, kSupplyMonitorBit);
    m.tx_power = image.bit(kLaneMonitors, kTxPowerMonitorBit);
    m.rx_power = image.bit(kLaneMonitors, kRxPowerMonitorBit);
    if (image.bit(kLaneMonitors, kTxBiasMonitorBit))
        m.bias_multiplier = biasMultiplier(image);
    return m;
}

std::vector<ModuleLane> lanes(const Image& image, const Monitors& m)
{
    std::vector<ModuleLane> out(mediaLanes(image));
    for (size_t i = 0; i < out.size(); ++i) {
        ModuleLane& lane = out[i];
        if (m.bias_multiplier)
            lane.tx_bias_amperes = amperes(image.u16(kTxBias + 2 * i)) * *m.bias_multiplier;
        if (m.tx_power)
            lane.tx_power_watts = watts(image.u16(kTxPower + 2 * i));
        if (m.rx_power)
            lane.rx_power_watts = watts(image.u16(kRxPower + 2 * i));
        lane.tx_fault = image.bit(kTxFaultFlags, unsigned(i));
        lane.rx_los = image.bit(kRxLosFlags, unsigned(i));
    }
    return out;
}

void thresholds(const Image& image, const Monitors& m, ModuleDom& dom)
{
    if (m.temperature)
        dom.temperature = thresholdsAt(image, kTemperatureThresholds, celsius);
    if (m.supply)
        dom.supply = thresholdsAt(image, kSupplyThresholds, volts);
    if (m.tx_power)
        dom.tx_power = thresholdsAt(image, kTxPowerThresholds, watts);
    if (m.rx_power)
        dom.rx_power = thresholdsAt(image, kRxPowerThresholds, watts);
    if (m.bias_multiplier) {
        double factor = *m.bias_multiplier;
        dom.tx_bias = thresholdsAt(image, kTxBiasThresholds,
                                   [factor](uint16_t raw) { return amperes(raw) * factor; });
    }
}

ModuleDom decode(std::span<const uint8_t> blob)
{
    requireSize(Layout::Cmis, blob.size(), kFlatSize);
    Image image(blob, Layout::Cmis);
    ModuleDom dom = withoutDom(blob[0], ModuleStandard::Cmis);
    // A flat module has no page 01h to advertise monitors in: no DOM (as ethtool and SONiC).
    if (image.bit(kMemoryModel, kFlatMemoryBit) || passiveCopper(image))
        return dom;
    requireSize(Layout::Cmis, blob.size(), kPagedSize,
                "(a paged module: pages 01h, 02h, 10h and 11h)");
    Monitors m = advertised(image);
    if (!m.any())
        return dom;
    dom.has_dom = true;
    if (m.temperature)
        dom.temperature_celsius = celsius(image.u16(kTemperature));
    if (m.supply)
        dom.supply_volts = volts(image.u16(kSupply));
    dom.lanes = lanes(image, m);
    thresholds(image, m, dom);
    return dom;
}

} // namespace cmis

// ---- SFF-8472 (SFP, SFP+, SFP28) ----

namespace sff8472 {

constexpr size_t kA0Size = 2 * kHalfPage;
constexpr size_t kFullSize = 4 * kHalfPage;
constexpr size_t kA2 = kA0Size; // blob offset of A2h byte 0

// A0h
constexpr size_t kDiagnosticType = 92;
constexpr unsigned kDdmBit = 6;
constexpr unsigned kExternalCalibrationBit = 4;
constexpr size_t kEnhancedOptions = 93;
constexpr unsigned kAlarmFlagsBit = 7;

// A2h
constexpr size_t kTemperatureThresholds = kA2 + 0;
constexpr size_t kSupplyThresholds = kA2 + 8;
constexpr size_t kTxBiasThresholds = kA2 + 16;
constexpr size_t kTxPowerThresholds = kA2 + 24;
constexpr size_t kRxPowerThresholds = kA2 + 32;
constexpr size_t kRxPowerCoefficients = kA2 + 56; // Rx_PWR(4), (3), (2), (1), (0): floats
constexpr size_t kRxPowerTerms = 5;
constexpr size_t kTxBiasCalibration = kA2 + 76; // slope (unsigned 8.8), offset (signed 16)
constexpr size_t kTxPowerCalibration = kA2 + 80;
constexpr size_t kTemperatureCalibration = kA2 + 84;
constexpr size_t kSupplyCalibration = kA2 + 88;
constexpr size_t kTemperature = kA2 + 96;
constexpr size_t kSupply = kA2 + 98;
constexpr size_t kTxBias = kA2 + 100;
constexpr size_t kTxPower = kA2 + 102;
constexpr size_t kRxPower = kA2 + 104;
constexpr size_t kStatus = kA2 + 110;
constexpr unsigned kTxFaultBit = 2;
constexpr unsigned kRxLosBit = 1;
constexpr unsigned kDataNotReadyBit = 0;

constexpr double kSlopeLsb = 1.0 / 256.0;

struct Linear {
    double slope = 1.0;
    double offset = 0.0;

    double operator()(double raw) const { return slope * raw + offset; }
};

// Raw readings to the specs' units (1/256 C, 100 uV, 2 uA, 0.1 uW); identity when the module
// calibrates internally.
struct Calibration {
    Linear temperature;
    Linear supply;
    Linear tx_bias;
    Linear tx_power;
    std::array<double, kRxPowerTerms> rx_power{0.0, 0.0, 0.0, 1.0, 0.0}; // x^4 .. x^0

    double rxPower(double raw) const
    {
        double sum = 0.0;
        for (double coefficient : rx_power)
            sum = sum * raw + coefficient;
        return sum;
    }
};

Linear linearAt(const Image& image, size_t offset)
{
    return {image.u16(offset) * kSlopeLsb, double(image.s16(offset + 2))};
}

Calibration calibration(const Image& image)
{
    Calibration cal;
    if (!image.bit(kDiagnosticType, kExternalCalibrationBit))
        return cal;
    cal.temperature = linearAt(image, kTemperatureCalibration);
    cal.supply = linearAt(image, kSupplyCalibration);
    cal.tx_bias = linearAt(image, kTxBiasCalibration);
    cal.tx_power = linearAt(image, kTxPowerCalibration);
    for (size_t i = 0; i < kRxPowerTerms; ++i)
        cal.rx_power[i] = std::bit_cast<float>(image.u32(kRxPowerCoefficients + 4 * i));
    return cal;
}

void thresholds(const Image& image, const Calibration& cal, ModuleDom& dom)
{
    dom.temperature = thresholdsAt(image, kTemperatureThresholds, [&](uint16_t raw) {
        return cal.temperature(std::bit_cast<int16_t>(raw)) * kCelsiusPerLsb;
    });
    dom.supply = thresholdsAt(image, kSupplyThresholds,
                              [&](uint16_t raw) { return cal.supply(raw) * kVoltsPerLsb; });
    dom.tx_bias = thresholdsAt(image, kTxBiasThresholds,
                               [&](uint16_t raw) { return cal.tx_bias(raw) * kAmperesPerLsb; });
    dom.tx_power = thresholdsAt(image, kTxPowerThresholds,
                                [&](uint16_t raw) { return cal.tx_power(raw) * kWattsPerLsb; });
    dom.rx_power = thresholdsAt(image, kRxPowerThresholds,
                                [&](uint16_t raw) { return cal.rxPower(raw) * kWattsPerLsb; });
}

ModuleLane lane(const Image& image, const Calibration& cal)
{
    ModuleLane lane;
    lane.tx_bias_amperes = finite(cal.tx_bias(image.u16(kTxBias)) * kAmperesPerLsb);
    lane.tx_power_watts = finite(cal.tx_power(image.u16(kTxPower)) * kWattsPerLsb);
    lane.rx_power_watts = finite(cal.rxPower(image.u16(kRxPower)) * kWattsPerLsb);
    lane.tx_fault = image.bit(kStatus, kTxFaultBit);
    lane.rx_los = image.bit(kStatus, kRxLosBit);
    return lane;
}

ModuleDom decode(std::span<const uint8_t> blob)
{
    requireSize(Layout::Sff8472, blob.size(), kA0Size);
    Image image(blob, Layout::Sff8472);
    ModuleDom dom = withoutDom(blob[0], ModuleStandard::Sff8472);
    if (!image.bit(kDiagnosticType, kDdmBit))
        return dom;
    requireSize(Layout::Sff8472, blob.size(), kFullSize, "(diagnostics implemented: A2h)");
    if (image.bit(kStatus, kDataNotReadyBit))
        return dom;
    Calibration cal = calibration(image);
    dom.has_dom = true;
    dom.temperature_celsius = finite(cal.temperature(image.s16(kTemperature)) * kCelsiusPerLsb);
    dom.supply_volts = finite(cal.supply(image.u16(kSupply)) * kVoltsPerLsb);
    dom.lanes.push_back(lane(image, cal));
    if (image.bit(kEnhancedOptions, kAlarmFlagsBit))
        thresholds(image, cal, dom);
    return dom;
}

} // namespace sff8472

// ---- Read plan ----

constexpr size_t kLowerPageSize = kHalfPage;

void requireLowerPage(std::span<const uint8_t> lower_page)
{
    if (lower_page.size() < kLowerPageSize)
        throw DecodeError(fmt::format("module EEPROM lower page of {} bytes: {} expected",
                                      lower_page.size(), kLowerPageSize));
}

// The upper half of page (bank 0) at i2c 0x50, into blob slot * 128 + 128.
EepromRead upperPage(uint8_t page, size_t slot)
{
    return {
        kI2cA0, page, 0, uint8_t(kUpperStart), uint8_t(kHalfPage), slot * kHalfPage + kUpperStart};
}

std::vector<EepromRead> sff8636Plan(std::span<const uint8_t> lower_page)
{
    std::vector<EepromRead> plan{upperPage(0x00, sff8636::kSlot00)};
    if (!((lower_page[sff8636::kStatus] >> sff8636::kFlatMemoryBit) & 1U))
        plan.push_back(upperPage(0x03, sff8636::kSlot03));
    return plan;
}

std::vector<EepromRead> cmisPlan(std::span<const uint8_t> lower_page)
{
    std::vector<EepromRead> plan{upperPage(0x00, cmis::kSlot00)};
    if ((lower_page[cmis::kMemoryModel] >> cmis::kFlatMemoryBit) & 1U)
        return plan;
    plan.push_back(upperPage(0x01, cmis::kSlot01));
    plan.push_back(upperPage(0x02, cmis::kSlot02));
    plan.push_back(upperPage(0x10, cmis::kSlot10));
    plan.push_back(upperPage(0x11, cmis::kSlot11));
    return plan;
}

// A0h upper half; A2h both halves only when the module implements diagnostics (as ethtool does:
// a module without them may not answer at 0x51).
std::vector<EepromRead> sff8472Plan(std::span<const uint8_t> lower_page)
{
    std::vector<EepromRead> plan{upperPage(0x00, 0)}; // A0h upper half
    if (!((lower_page[sff8472::kDiagnosticType] >> sff8472::kDdmBit) & 1U))
        return plan;
    plan.push_back({kI2cA2, 0, 0, 0, uint8_t(kHalfPage), sff8472::kA2});
    plan.push_back(
        {kI2cA2, 0, 0, uint8_t(kUpperStart), uint8_t(kHalfPage), sff8472::kA2 + kUpperStart});
    return plan;
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
        return sff8636Plan(lower_page);
    case Layout::Cmis:
        return cmisPlan(lower_page);
    case Layout::Sff8472:
        return sff8472Plan(lower_page);
    default:
        return {};
    }
}

size_t eepromBlobSize(std::span<const uint8_t> lower_page)
{
    requireLowerPage(lower_page);
    switch (layoutOf(lower_page[0])) {
    case Layout::Sff8636:
        return sff8636::kFullSize;
    case Layout::Cmis:
        return (lower_page[cmis::kMemoryModel] >> cmis::kFlatMemoryBit) & 1U ? cmis::kFlatSize
                                                                             : cmis::kPagedSize;
    case Layout::Sff8472:
        return sff8472::kFullSize;
    default:
        return kLowerPageSize;
    }
}

} // namespace nicd::signals
