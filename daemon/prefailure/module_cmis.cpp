// Module EEPROM, CMIS (QSFP-DD, OSFP, QSFP112, ...): lower page, pages 00h, 01h, 02h, 10h, 11h bank
// 0; 768 bytes, 256 when flat. Offsets are the spec's byte numbers; see module_eeprom.cpp for the
// decoder's choices.
#include "prefailure/decode_error.hpp"
#include "prefailure/module_layout.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <optional>

namespace nicd::prefailure::module_layout::cmis {

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

std::vector<EepromRead> plan(std::span<const uint8_t> lower_page)
{
    std::vector<EepromRead> plan{upperPage(0x00, kSlot00)};
    if ((lower_page[kMemoryModel] >> kFlatMemoryBit) & 1U)
        return plan;
    plan.push_back(upperPage(0x01, kSlot01));
    plan.push_back(upperPage(0x02, kSlot02));
    plan.push_back(upperPage(0x10, kSlot10));
    plan.push_back(upperPage(0x11, kSlot11));
    return plan;
}

size_t blobSize(std::span<const uint8_t> lower_page)
{
    return (lower_page[kMemoryModel] >> kFlatMemoryBit) & 1U ? kFlatSize : kPagedSize;
}

} // namespace nicd::prefailure::module_layout::cmis
