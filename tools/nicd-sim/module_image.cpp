// Builds a transceiver's EEPROM image from a ModuleSpec: SFF-8636 or CMIS memory map in nicd's
// blob layout. Offsets are the specs' byte numbers (lower page 0-127, upper page 128-255); an upper
// page's byte b lands at slot * 128 + b. All multi-byte fields are big-endian.
#include "module_image.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

namespace nicd::sim {

namespace {

constexpr size_t kHalfPage = 128;

// Field units (SFF-8636 §6.2.3, CMIS §8.2.5 / §8.9.4)
constexpr double kLsbPerCelsius = 256.0;
constexpr double kLsbPerVolt = 10000.0;      // 100 uV
constexpr double kLsbPerMilliamp = 500.0;    // 2 uA
constexpr double kLsbPerMilliwatt = 10000.0; // 0.1 uW
constexpr double kMaxU16 = 65535.0;

class Blob {
public:
    explicit Blob(size_t size) : bytes_(size, 0) {}

    void u8(size_t offset, uint8_t value) { bytes_.at(offset) = value; }
    void u16(size_t offset, double raw)
    {
        auto v = uint16_t(std::clamp(std::round(raw), 0.0, kMaxU16));
        bytes_.at(offset) = uint8_t(v >> 8);
        bytes_.at(offset + 1) = uint8_t(v & 0xFF);
    }
    void s16(size_t offset, double raw)
    {
        auto v = int16_t(std::clamp(std::round(raw), -32768.0, 32767.0));
        u16(offset, std::bit_cast<uint16_t>(v));
    }
    void text(size_t offset, size_t width, const std::string& s) // space padded, as the specs say
    {
        for (size_t i = 0; i < width; ++i)
            bytes_.at(offset + i) = i < s.size() ? uint8_t(s[i]) : uint8_t(' ');
    }
    void limits(size_t offset, const ModuleLimits& l, double scale, bool is_signed = false)
    {
        double values[] = {l.high_alarm, l.low_alarm, l.high_warning, l.low_warning};
        for (size_t i = 0; i < 4; ++i) {
            if (is_signed)
                s16(offset + 2 * i, values[i] * scale);
            else
                u16(offset + 2 * i, values[i] * scale);
        }
    }
    std::vector<uint8_t> take() { return std::move(bytes_); }

private:
    std::vector<uint8_t> bytes_;
};

uint8_t laneBits(const std::vector<ModuleLaneSpec>& lanes, size_t count, bool ModuleLaneSpec::*flag)
{
    uint8_t bits = 0;
    for (size_t i = 0; i < std::min(count, lanes.size()); ++i)
        if (lanes[i].*flag)
            bits = uint8_t(bits | (1U << i));
    return bits;
}

// ---- SFF-8636 ----

namespace sff8636 {

constexpr size_t kSize = 5 * kHalfPage;
constexpr size_t kLanes = 4;
constexpr size_t kPage03 = 3 * kHalfPage;

constexpr uint8_t kRevision27 = 0x08;
constexpr uint8_t kFlatMemory = 0x04; // byte 2 bit 2
constexpr uint8_t kConnectorMpo = 0x0C;
constexpr uint8_t kConnectorNone = 0x23; // no separable connector (DAC)
constexpr uint8_t kTech850Vcsel = 0x00;
constexpr uint8_t kTechCopperUnequalized = 0xA0;
constexpr uint8_t kDiagMonitors = 0x3C; // temperature, supply, average RX power, TX power

void lowerPage(Blob& b, const ModuleSpec& spec)
{
    b.u8(0, spec.identifier);
    b.u8(1, kRevision27);
    b.u8(2, spec.copper ? kFlatMemory : 0x00);
    if (spec.copper)
        return;
    b.u8(3, laneBits(spec.lanes, kLanes, &ModuleLaneSpec::rx_los)); // RX LOS lanes 4..1, bits 3..0
    b.u8(4, laneBits(spec.lanes, kLanes, &ModuleLaneSpec::tx_fault));
    b.s16(22, spec.temperature_c * kLsbPerCelsius);
    b.u16(26, spec.vcc_v * kLsbPerVolt);
    for (size_t i = 0; i < std::min(kLanes, spec.lanes.size()); ++i) {
        b.u16(34 + 2 * i, spec.lanes[i].rx_power_mw * kLsbPerMilliwatt);
        b.u16(42 + 2 * i, spec.lanes[i].bias_ma * kLsbPerMilliamp);
        b.u16(50 + 2 * i, spec.lanes[i].tx_power_mw * kLsbPerMilliwatt);
    }
}

void page00(Blob& b, const ModuleSpec& spec)
{
    b.u8(128, spec.identifier);
    b.u8(130, spec.copper ? kConnectorNone : kConnectorMpo);
    b.u8(147, spec.copper ? kTechCopperUnequalized : kTech850Vcsel);
    b.text(148, 16, spec.vendor_name);
    b.text(168, 16, spec.part_number);
    b.text(196, 16, spec.serial_number);
    if (!spec.copper)
        b.u8(220, kDiagMonitors);
}

void page03(Blob& b, const ModuleSpec& spec)
{
    b.limits(kPage03 + 128, spec.temperature_c_limits, kLsbPerCelsius, true);
    b.limits(kPage03 + 144, spec.vcc_v_limits, kLsbPerVolt);
    b.limits(kPage03 + 176, spec.rx_power_mw_limits, kLsbPerMilliwatt);
    b.limits(kPage03 + 184, spec.bias_ma_limits, kLsbPerMilliamp);
    b.limits(kPage03 + 192, spec.tx_power_mw_limits, kLsbPerMilliwatt);
}

std::vector<uint8_t> image(const ModuleSpec& spec)
{
    Blob b(kSize);
    lowerPage(b, spec);
    page00(b, spec);
    if (!spec.copper)
        page03(b, spec);
    return b.take();
}

} // namespace sff8636

// ---- CMIS ----

namespace cmis {

constexpr size_t kPagedSize = 6 * kHalfPage;
constexpr size_t kFlatSize = 2 * kHalfPage;
constexpr size_t kMaxLanes = 8;
constexpr size_t kPage01 = 1 * kHalfPage;
constexpr size_t kPage02 = 2 * kHalfPage;
constexpr size_t kPage11 = 4 * kHalfPage;

constexpr uint8_t kRevision50 = 0x50;
constexpr uint8_t kFlatMemory = 0x80;       // byte 2 bit 7
constexpr uint8_t kModuleReady = 0x03 << 1; // byte 3 bits 3..1
constexpr uint8_t kMediaSmf = 0x02;         // SFF-8024 Table 4-5
constexpr uint8_t kMediaPassiveCopper = 0x03;
constexpr uint8_t kTech1310Eml = 0x06; // SFF-8024 Table 4-10
constexpr uint8_t kTechCopperUnequalized = 0x0A;
constexpr uint8_t kHost400gaui4 = 0x4F; // SFF-8024 Table 4-6: 400GAUI-4-S C2M
constexpr uint8_t kMedia400gDr4 = 0x1C; // Table 4-7: 400GBASE-DR4
constexpr uint8_t kHost100gaui1 = 0x4B; // 100GAUI-1-S C2M
constexpr uint8_t kMedia100gDr = 0x14;  // 100GBASE-DR
constexpr uint8_t kAppListEnd = 0xFF;
constexpr uint8_t kDataPathActivated = 0x44; // page 11h 128-131, two lanes a byte
constexpr uint8_t kModuleMonitors = 0x03;    // page 01h 159: temperature, supply
constexpr uint8_t kLaneMonitors = 0x07;      // page 01h 160: TX bias, TX power, RX power
constexpr unsigned kBiasMultiplierShift = 3;
constexpr double kMaxBiasMa = kMaxU16 / kLsbPerMilliamp; // 131.07 mA at x1

size_t laneCount(const ModuleSpec& spec)
{
    return std::clamp<size_t>(spec.lanes.size(), 1, kMaxLanes);
}

// The smallest advertised multiplier (code 0 x1, 1 x2, 2 x4) that fits the biggest bias.
unsigned biasMultiplierCode(const ModuleSpec& spec)
{
    double biggest = std::max(spec.bias_ma_limits.high_alarm, spec.bias_ma_limits.high_warning);
    for (const ModuleLaneSpec& lane : spec.lanes)
        biggest = std::max(biggest, lane.bias_ma);
    unsigned code = 0;
    while (code < 2 && biggest > kMaxBiasMa * (1U << code))
        ++code;
    return code;
}

// App 1: the whole module (N lanes from lane 1); app 2: 100G on each lane alone.
void applications(Blob& b, size_t lanes)
{
    auto n = uint8_t(lanes);
    b.u8(86, kHost400gaui4);
    b.u8(87, kMedia400gDr4);
    b.u8(88, uint8_t(n << 4 | n));
    b.u8(89, 0x01);
    b.u8(kPage01 + 176, 0x01);
    b.u8(90, kHost100gaui1);
    b.u8(91, kMedia100gDr);
    b.u8(92, 0x11);
    b.u8(93, uint8_t((1U << lanes) - 1));
    b.u8(kPage01 + 177, uint8_t((1U << lanes) - 1));
    b.u8(94, kAppListEnd);
}

void lowerAndPage00(Blob& b, const ModuleSpec& spec)
{
    b.u8(0, spec.identifier);
    b.u8(1, kRevision50);
    b.u8(2, spec.copper ? kFlatMemory : 0x00);
    b.u8(3, kModuleReady);
    b.u8(85, spec.copper ? kMediaPassiveCopper : kMediaSmf);
    b.u8(128, spec.identifier);
    b.text(129, 16, spec.vendor_name);
    b.text(148, 16, spec.part_number);
    b.text(166, 16, spec.serial_number);
    b.u8(212, spec.copper ? kTechCopperUnequalized : kTech1310Eml);
    if (spec.copper)
        return;
    b.s16(14, spec.temperature_c * kLsbPerCelsius);
    b.u16(16, spec.vcc_v * kLsbPerVolt);
    applications(b, laneCount(spec));
}

void page01And02(Blob& b, const ModuleSpec& spec, double bias_lsb_per_ma)
{
    b.u8(kPage01 + 157, 0x01); // TX fault flag supported
    b.u8(kPage01 + 158, 0x02); // RX LOS flag supported
    b.u8(kPage01 + 159, kModuleMonitors);
    b.u8(kPage01 + 160, uint8_t(kLaneMonitors | biasMultiplierCode(spec) << kBiasMultiplierShift));
    b.limits(kPage02 + 128, spec.temperature_c_limits, kLsbPerCelsius, true);
    b.limits(kPage02 + 136, spec.vcc_v_limits, kLsbPerVolt);
    b.limits(kPage02 + 176, spec.tx_power_mw_limits, kLsbPerMilliwatt);
    b.limits(kPage02 + 184, spec.bias_ma_limits, bias_lsb_per_ma);
    b.limits(kPage02 + 192, spec.rx_power_mw_limits, kLsbPerMilliwatt);
}

void page11(Blob& b, const ModuleSpec& spec, double bias_lsb_per_ma)
{
    size_t lanes = laneCount(spec);
    for (size_t i = 0; i < lanes / 2 + lanes % 2; ++i)
        b.u8(kPage11 + 128 + i, kDataPathActivated);
    b.u8(kPage11 + 135, laneBits(spec.lanes, lanes, &ModuleLaneSpec::tx_fault));
    b.u8(kPage11 + 147, laneBits(spec.lanes, lanes, &ModuleLaneSpec::rx_los));
    for (size_t i = 0; i < std::min(lanes, spec.lanes.size()); ++i) {
        b.u16(kPage11 + 154 + 2 * i, spec.lanes[i].tx_power_mw * kLsbPerMilliwatt);
        b.u16(kPage11 + 170 + 2 * i, spec.lanes[i].bias_ma * bias_lsb_per_ma);
        b.u16(kPage11 + 186 + 2 * i, spec.lanes[i].rx_power_mw * kLsbPerMilliwatt);
    }
}

std::vector<uint8_t> image(const ModuleSpec& spec)
{
    Blob b(spec.copper ? kFlatSize : kPagedSize);
    lowerAndPage00(b, spec);
    if (spec.copper)
        return b.take();
    double bias_lsb_per_ma = kLsbPerMilliamp / double(1U << biasMultiplierCode(spec));
    page01And02(b, spec, bias_lsb_per_ma);
    page11(b, spec, bias_lsb_per_ma);
    return b.take();
}

} // namespace cmis

bool isSff8636(uint8_t identifier)
{
    return identifier == 0x0C || identifier == 0x0D || identifier == 0x11;
}

} // namespace

ModuleSpec qsfp28Sr4()
{
    ModuleSpec spec;
    spec.identifier = 0x11;
    spec.vendor_name = "Mellanox";
    spec.part_number = "MMA1B00-C100D";
    spec.serial_number = "MT2210FT01234";
    spec.temperature_c = 41.0;
    spec.vcc_v = 3.28;
    spec.lanes = {{7.2, 0.85, 0.72}, {7.4, 0.88, 0.69}, {7.1, 0.83, 0.75}, {7.5, 0.90, 0.70}};
    spec.bias_ma_limits = {12.0, 3.0, 11.0, 4.0};
    spec.tx_power_mw_limits = {2.512, 0.1445, 1.995, 0.1820}; // +4, -8.4, +3, -7.4 dBm
    spec.rx_power_mw_limits = {3.162, 0.0724, 2.512, 0.0912}; // +5, -11.4, +4, -10.4 dBm
    return spec;
}

double dbmToMilliwatts(double dbm)
{
    return std::pow(10.0, dbm / 10.0);
}

std::vector<uint8_t> moduleImage(const ModuleSpec& spec)
{
    return isSff8636(spec.identifier) ? sff8636::image(spec) : cmis::image(spec);
}

} // namespace nicd::sim
