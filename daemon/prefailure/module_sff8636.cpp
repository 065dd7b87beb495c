// Module EEPROM, SFF-8636 (QSFP+, QSFP28): lower page, pages 00h and 03h; 640-byte blob.
// Offsets are the spec's byte numbers; see module_eeprom.cpp for the decoder's choices.
#include "prefailure/decode_error.hpp"
#include "prefailure/module_layout.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <optional>

namespace nicd::prefailure::module_layout::sff8636 {

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

std::vector<EepromRead> plan(std::span<const uint8_t> lower_page)
{
    std::vector<EepromRead> plan{upperPage(0x00, kSlot00)};
    if (!((lower_page[kStatus] >> kFlatMemoryBit) & 1U))
        plan.push_back(upperPage(0x03, kSlot03));
    return plan;
}

size_t blobSize(std::span<const uint8_t> /*lower_page*/)
{
    return kFullSize;
}

} // namespace nicd::prefailure::module_layout::sff8636
