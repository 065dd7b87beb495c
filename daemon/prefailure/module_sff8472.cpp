// Module EEPROM, SFF-8472 (SFP, SFP+, SFP28): A0h then A2h; 512 bytes.
// Offsets are the spec's byte numbers; see module_eeprom.cpp for the decoder's choices.
#include "prefailure/decode_error.hpp"
#include "prefailure/module_layout.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <optional>

namespace nicd::prefailure::module_layout::sff8472 {

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

// A0h upper half; A2h both halves only when the module implements diagnostics (as ethtool does:
// a module without them may not answer at 0x51).
std::vector<EepromRead> plan(std::span<const uint8_t> lower_page)
{
    std::vector<EepromRead> plan{upperPage(0x00, 0)}; // A0h upper half
    if (!((lower_page[kDiagnosticType] >> kDdmBit) & 1U))
        return plan;
    plan.push_back({kI2cA2, 0, 0, 0, uint8_t(kHalfPage), kA2});
    plan.push_back({kI2cA2, 0, 0, uint8_t(kUpperStart), uint8_t(kHalfPage), kA2 + kUpperStart});
    return plan;
}

size_t blobSize(std::span<const uint8_t> /*lower_page*/)
{
    return kFullSize;
}

} // namespace nicd::prefailure::module_layout::sff8472
