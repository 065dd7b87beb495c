// The module EEPROM decoder and read plan: hand-built SFF-8636, CMIS and SFF-8472 images (values,
// thresholds, flags, advertised monitors, copper, no module, truncation) and real captures from
// public reports (tests/data/module, see SOURCES.md), checked against what the reporting tool
// printed where the report has it.
#include "signals/decode_error.hpp"
#include "signals/module_eeprom.hpp"

#include <cmath>
#include <cstdint>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

using namespace nicd;
using nicd::signals::DecodeError;
using nicd::signals::decodeModuleEeprom;
using nicd::signals::eepromBlobSize;
using nicd::signals::EepromRead;
using nicd::signals::eepromReadPlan;

namespace {

constexpr double kMilli = 1e-3;

// ---- Helpers ----

// A blob being built: big-endian 16-bit writes at the specs' offsets.
struct Image {
    std::vector<uint8_t> bytes;

    explicit Image(size_t size) : bytes(size, 0) {}
    Image& set(size_t offset, uint8_t value)
    {
        bytes.at(offset) = value;
        return *this;
    }
    Image& u16(size_t offset, uint16_t value)
    {
        bytes.at(offset) = uint8_t(value >> 8);
        bytes.at(offset + 1) = uint8_t(value & 0xFF);
        return *this;
    }
    Image& s16(size_t offset, int16_t value) { return u16(offset, uint16_t(value)); }
    Image& u16s(size_t offset, std::vector<uint16_t> values)
    {
        for (size_t i = 0; i < values.size(); ++i)
            u16(offset + 2 * i, values[i]);
        return *this;
    }
    Image& f32(size_t offset, uint32_t bits)
    {
        u16(offset, uint16_t(bits >> 16));
        return u16(offset + 2, uint16_t(bits & 0xFFFF));
    }
};

// "offset: hex bytes" lines ("0x0000:\t\t03 04 ..." from ethtool -m hex on works as is); text
// after '#' or '|' is ignored, and so is a line whose offset is not hex (ethtool's header).
std::vector<uint8_t> readCapture(const std::string& name, size_t size)
{
    std::ifstream in(std::string(NICD_SOURCE_DIR) + "/tests/data/module/" + name);
    EXPECT_TRUE(in) << name;
    std::vector<uint8_t> blob(size, 0);
    std::string line;
    while (std::getline(in, line)) {
        line = line.substr(0, line.find_first_of("#|"));
        auto colon = line.find(':');
        if (colon == std::string::npos)
            continue;
        size_t offset = 0;
        try {
            offset = std::stoul(line.substr(0, colon), nullptr, 16);
        } catch (const std::exception&) {
            continue;
        }
        std::istringstream hex(line.substr(colon + 1));
        std::string token;
        while (hex >> token)
            blob.at(offset++) = uint8_t(std::stoul(token, nullptr, 16));
    }
    return blob;
}

::testing::AssertionResult near(const std::optional<double>& actual, double expected,
                                double tolerance = 1e-12)
{
    if (!actual)
        return ::testing::AssertionFailure() << "absent, expected " << expected;
    if (std::abs(*actual - expected) > tolerance)
        return ::testing::AssertionFailure() << *actual << " != " << expected;
    return ::testing::AssertionSuccess();
}

::testing::AssertionResult limits(const DomThresholds& t, double high_alarm, double low_alarm,
                                  double high_warning, double low_warning, double tolerance = 1e-12)
{
    for (auto [value, expected, name] : {std::tuple{t.high_alarm, high_alarm, "high alarm"},
                                         std::tuple{t.low_alarm, low_alarm, "low alarm"},
                                         std::tuple{t.high_warning, high_warning, "high warning"},
                                         std::tuple{t.low_warning, low_warning, "low warning"}}) {
        auto r = near(value, expected, tolerance);
        if (!r)
            return r << " (" << name << ")";
    }
    return ::testing::AssertionSuccess();
}

bool absent(const DomThresholds& t)
{
    return t == DomThresholds{};
}

// What a module without diagnostics decodes to: its identifier and standard, nothing else.
ModuleDom noDom(uint8_t identifier, ModuleStandard standard)
{
    ModuleDom dom;
    dom.identifier = identifier;
    dom.standard = standard;
    return dom;
}

// ---- SFF-8636 images ----

constexpr size_t kSff8636Size = 640;
constexpr size_t kSff8636Page03 = 3 * 128;

Image sff8636Optic()
{
    Image m(kSff8636Size);
    m.set(0, 0x11).set(1, 0x08);
    m.set(3, 0x18); // TX1 LOS (bit 4, not a receive flag) and RX4 LOS (bit 3)
    m.set(4, 0x02); // TX2 fault
    m.s16(22, 0x2380).u16(26, 33000);
    m.u16s(34, {5000, 6000, 7000, 8});    // RX power, 0.1 uW
    m.u16s(42, {3000, 3100, 3200, 3300}); // TX bias, 2 uA
    m.u16s(50, {5500, 5600, 5700, 5800}); // TX power
    m.set(147, 0x00).set(220, 0x0C);      // 850 nm VCSEL; average RX power, TX power monitored
    m.u16s(kSff8636Page03 + 128, {0x4B00, 0xFB00, 0x4600, 0x0000});
    m.u16s(kSff8636Page03 + 144, {36300, 29700, 34650, 31350});
    m.u16s(kSff8636Page03 + 176, {20000, 630, 15849, 1259});
    m.u16s(kSff8636Page03 + 184, {6000, 1500, 5500, 2000});
    m.u16s(kSff8636Page03 + 192, {31623, 1000, 19953, 1585});
    return m;
}

TEST(ModuleEepromSff8636, DecodesValuesThresholdsAndFlags)
{
    ModuleDom dom = decodeModuleEeprom(sff8636Optic().bytes);
    EXPECT_EQ(dom.identifier, 0x11);
    EXPECT_EQ(dom.standard, ModuleStandard::Sff8636);
    ASSERT_TRUE(dom.has_dom);
    EXPECT_TRUE(near(dom.temperature_celsius, 35.5));
    EXPECT_TRUE(near(dom.supply_volts, 3.3));
    ASSERT_EQ(dom.lanes.size(), 4U);
    EXPECT_TRUE(near(dom.lanes[0].rx_power_watts, 0.5 * kMilli));
    EXPECT_TRUE(near(dom.lanes[3].rx_power_watts, 0.0008 * kMilli));
    EXPECT_TRUE(near(dom.lanes[1].tx_bias_amperes, 6.2 * kMilli));
    EXPECT_TRUE(near(dom.lanes[2].tx_power_watts, 0.57 * kMilli));
    std::vector<bool> los, fault;
    for (const auto& lane : dom.lanes) {
        los.push_back(lane.rx_los);
        fault.push_back(lane.tx_fault);
    }
    EXPECT_EQ(los, (std::vector<bool>{false, false, false, true}));
    EXPECT_EQ(fault, (std::vector<bool>{false, true, false, false}));
    EXPECT_TRUE(limits(dom.temperature, 75, -5, 70, 0));
    EXPECT_TRUE(limits(dom.supply, 3.63, 2.97, 3.465, 3.135));
    EXPECT_TRUE(
        limits(dom.rx_power, 2.0 * kMilli, 0.063 * kMilli, 1.5849 * kMilli, 0.1259 * kMilli));
    EXPECT_TRUE(limits(dom.tx_bias, 12 * kMilli, 3 * kMilli, 11 * kMilli, 4 * kMilli));
    EXPECT_TRUE(
        limits(dom.tx_power, 3.1623 * kMilli, 0.1 * kMilli, 1.9953 * kMilli, 0.1585 * kMilli));
}

TEST(ModuleEepromSff8636, LeavesTxPowerOutWhenTheModuleDoesNotMonitorIt)
{
    Image m = sff8636Optic();
    m.set(220, 0x08);
    ModuleDom dom = decodeModuleEeprom(m.bytes);
    for (const auto& lane : dom.lanes) {
        EXPECT_FALSE(lane.tx_power_watts);
        EXPECT_TRUE(lane.rx_power_watts);
    }
    EXPECT_TRUE(absent(dom.tx_power));
    EXPECT_FALSE(absent(dom.rx_power));
}

TEST(ModuleEepromSff8636, FlatModuleHasNoPage03Thresholds)
{
    Image m = sff8636Optic();
    m.set(2, 0x04); // flat memory: what sits where page 03h would be is not thresholds
    ModuleDom dom = decodeModuleEeprom(m.bytes);
    ASSERT_TRUE(dom.has_dom);
    EXPECT_TRUE(near(dom.temperature_celsius, 35.5));
    EXPECT_EQ(dom.lanes.size(), 4U);
    EXPECT_TRUE(absent(dom.temperature) && absent(dom.supply) && absent(dom.rx_power) &&
                absent(dom.tx_bias) && absent(dom.tx_power));
}

TEST(ModuleEepromSff8636, AcceptsLowerPageAndPage00Only)
{
    Image full = sff8636Optic();
    std::vector<uint8_t> short_blob(full.bytes.begin(), full.bytes.begin() + 256);
    ModuleDom dom = decodeModuleEeprom(short_blob);
    ASSERT_TRUE(dom.has_dom);
    EXPECT_TRUE(near(dom.lanes[0].tx_bias_amperes, 6 * kMilli));
    EXPECT_TRUE(absent(dom.temperature));
}

TEST(ModuleEepromSff8636, UnprogrammedThresholdGroupIsAbsent)
{
    Image m = sff8636Optic();
    m.u16s(kSff8636Page03 + 144, {0, 0, 0, 0});
    ModuleDom dom = decodeModuleEeprom(m.bytes);
    EXPECT_TRUE(absent(dom.supply));
    EXPECT_FALSE(absent(dom.temperature));
}

TEST(ModuleEepromSff8636, CopperCableHasNoDom)
{
    for (uint8_t technology : {0xA0, 0xB0, 0xC0, 0xF0}) {
        Image m = sff8636Optic();
        m.set(147, technology);
        ModuleDom dom = decodeModuleEeprom(m.bytes);
        EXPECT_EQ(dom.standard, ModuleStandard::Sff8636);
        EXPECT_FALSE(dom.has_dom) << int(technology);
        EXPECT_EQ(dom, noDom(0x11, ModuleStandard::Sff8636));
    }
}

TEST(ModuleEepromSff8636, NoMonitorsOrDataNotReadyMeansNoDom)
{
    for (uint16_t temperature : {0x0000, 0xFFFF}) {
        Image m = sff8636Optic();
        m.u16(22, temperature);
        EXPECT_FALSE(decodeModuleEeprom(m.bytes).has_dom) << temperature;
    }
    Image not_ready = sff8636Optic();
    not_ready.set(2, 0x01);
    EXPECT_FALSE(decodeModuleEeprom(not_ready.bytes).has_dom);
}

TEST(ModuleEepromSff8636, QsfpAndQsfpPlusUseTheSameLayout)
{
    for (uint8_t identifier : {0x0C, 0x0D}) {
        Image m = sff8636Optic();
        m.set(0, identifier);
        ModuleDom dom = decodeModuleEeprom(m.bytes);
        EXPECT_EQ(dom.standard, ModuleStandard::Sff8636);
        EXPECT_EQ(dom.identifier, identifier);
        EXPECT_TRUE(dom.has_dom);
    }
}

// ---- CMIS images ----

constexpr size_t kCmisSize = 768;
constexpr size_t kPage01 = 128;
constexpr size_t kPage02 = 256;
constexpr size_t kPage11 = 512;

Image cmisOptic()
{
    Image m(kCmisSize);
    m.set(0, 0x18).set(1, 0x50).set(2, 0x00).set(3, 0x06);
    m.s16(14, 0x2B40).u16(16, 33000);                          // 43.25 C, 3.3 V
    m.set(85, 0x02);                                           // single-mode fibre
    m.set(86, 0x11).set(87, 0x1C).set(88, 0x88).set(89, 0x01); // app 1: 8 media lanes
    m.set(90, 0xFF);                                           // end of the application list
    m.set(212, 0x04);                                          // 1310 nm DFB
    m.set(kPage01 + 159, 0x03);                                // temperature and supply monitored
    m.set(kPage01 + 160, 0x0D); // TX bias and RX power monitored (no TX power), bias x2
    m.set(kPage01 + 176, 0x01); // app 1 starts at lane 1
    m.u16s(kPage02 + 128, {0x5000, 0xFB00, 0x4B00, 0x0000});
    m.u16s(kPage02 + 136, {36000, 30000, 35000, 31000});
    m.u16s(kPage02 + 176, {1, 2, 3, 4}); // TX power limits of a monitor the module lacks
    m.u16s(kPage02 + 184, {30000, 5000, 27500, 7500});
    m.u16s(kPage02 + 192, {31623, 708, 25119, 1122});
    m.set(kPage11 + 135, 0x81); // TX fault lanes 1 and 8
    m.set(kPage11 + 147, 0x02); // RX LOS lane 2
    for (uint16_t i = 0; i < 8; ++i) {
        m.u16(kPage11 + 154 + 2 * i, 9999);
        m.u16(kPage11 + 170 + 2 * i, uint16_t(10000 + 100 * i));
        m.u16(kPage11 + 186 + 2 * i, uint16_t(9000 + 10 * i));
    }
    return m;
}

TEST(ModuleEepromCmis, DecodesAdvertisedLaneMonitorsOnly)
{
    ModuleDom dom = decodeModuleEeprom(cmisOptic().bytes);
    EXPECT_EQ(dom.identifier, 0x18);
    EXPECT_EQ(dom.standard, ModuleStandard::Cmis);
    ASSERT_TRUE(dom.has_dom);
    EXPECT_TRUE(near(dom.temperature_celsius, 43.25));
    EXPECT_TRUE(near(dom.supply_volts, 3.3));
    ASSERT_EQ(dom.lanes.size(), 8U);
    for (size_t i = 0; i < 8; ++i) {
        const ModuleLane& lane = dom.lanes[i];
        // 2 uA units times the advertised multiplier (x2), not divided by it
        EXPECT_TRUE(near(lane.tx_bias_amperes, (10000 + 100 * i) * 2e-6 * 2)) << i;
        EXPECT_TRUE(near(lane.rx_power_watts, (9000 + 10 * i) * 1e-7)) << i;
        EXPECT_FALSE(lane.tx_power_watts) << i;
        EXPECT_EQ(lane.tx_fault, i == 0 || i == 7) << i;
        EXPECT_EQ(lane.rx_los, i == 1) << i;
    }
    EXPECT_TRUE(limits(dom.temperature, 80, -5, 75, 0));
    EXPECT_TRUE(limits(dom.supply, 3.6, 3.0, 3.5, 3.1));
    EXPECT_TRUE(limits(dom.tx_bias, 120 * kMilli, 20 * kMilli, 110 * kMilli, 30 * kMilli));
    EXPECT_TRUE(
        limits(dom.rx_power, 3.1623 * kMilli, 0.0708 * kMilli, 2.5119 * kMilli, 0.1122 * kMilli));
    EXPECT_TRUE(absent(dom.tx_power));
}

TEST(ModuleEepromCmis, AppliesEachBiasMultiplier)
{
    for (auto [code, factor] : {std::pair{0x00, 1.0}, std::pair{0x08, 2.0}, std::pair{0x10, 4.0}}) {
        Image m = cmisOptic();
        m.set(kPage01 + 160, uint8_t(0x07 | code));
        ModuleDom dom = decodeModuleEeprom(m.bytes);
        EXPECT_TRUE(near(dom.lanes[0].tx_bias_amperes, 10000 * 2e-6 * factor)) << factor;
        EXPECT_TRUE(near(dom.tx_bias.high_alarm, 30000 * 2e-6 * factor)) << factor;
        EXPECT_TRUE(near(dom.lanes[0].tx_power_watts, 9999 * 1e-7));
        EXPECT_TRUE(limits(dom.tx_power, 1e-7, 2e-7, 3e-7, 4e-7));
    }
}

TEST(ModuleEepromCmis, ReservedBiasMultiplierLeavesBiasOut)
{
    Image m = cmisOptic();
    m.set(kPage01 + 160, 0x1D);
    ModuleDom dom = decodeModuleEeprom(m.bytes);
    EXPECT_FALSE(dom.lanes[0].tx_bias_amperes);
    EXPECT_TRUE(absent(dom.tx_bias));
    EXPECT_TRUE(dom.lanes[0].rx_power_watts);
}

TEST(ModuleEepromCmis, LanesAreTheMediaLanesTheApplicationsUse)
{
    Image m = cmisOptic();
    m.set(88, 0x44);                                           // 400G DR4: 4 media lanes at 1
    m.set(90, 0x4B).set(91, 0x14).set(92, 0x11).set(93, 0xFF); // 100G DR: 1 lane at 1-4
    m.set(94, 0xFF);
    m.set(kPage01 + 177, 0x0F);
    EXPECT_EQ(decodeModuleEeprom(m.bytes).lanes.size(), 4U);

    m.set(kPage01 + 176, 0x11); // 2 x 400G DR4: instances at lanes 1 and 5
    EXPECT_EQ(decodeModuleEeprom(m.bytes).lanes.size(), 8U);

    m.set(86, 0xFF); // no applications advertised: the whole bank
    EXPECT_EQ(decodeModuleEeprom(m.bytes).lanes.size(), 8U);
}

TEST(ModuleEepromCmis, ModuleMonitorsFollowTheirAdvertisement)
{
    Image m = cmisOptic();
    m.set(kPage01 + 159, 0x02); // supply only
    ModuleDom dom = decodeModuleEeprom(m.bytes);
    EXPECT_FALSE(dom.temperature_celsius);
    EXPECT_TRUE(absent(dom.temperature));
    EXPECT_TRUE(near(dom.supply_volts, 3.3));

    m.set(kPage01 + 159, 0x00).set(kPage01 + 160, 0x00);
    EXPECT_EQ(decodeModuleEeprom(m.bytes), noDom(0x18, ModuleStandard::Cmis));
}

TEST(ModuleEepromCmis, FlatModuleHasNoDom)
{
    Image m = cmisOptic();
    m.set(2, 0x80);
    std::vector<uint8_t> flat(m.bytes.begin(), m.bytes.begin() + 256);
    for (const auto& blob : {flat, m.bytes}) {
        ModuleDom dom = decodeModuleEeprom(blob);
        EXPECT_EQ(dom, noDom(0x18, ModuleStandard::Cmis));
    }
}

TEST(ModuleEepromCmis, PassiveCopperHasNoDom)
{
    Image by_media_type = cmisOptic();
    by_media_type.set(85, 0x03);
    Image by_technology = cmisOptic();
    by_technology.set(212, 0x0A);
    Image equalized = cmisOptic();
    equalized.set(212, 0x0B);
    for (const Image& m : {by_media_type, by_technology, equalized})
        EXPECT_FALSE(decodeModuleEeprom(m.bytes).has_dom);

    Image active = cmisOptic(); // an active copper cable still reports what it advertises
    active.set(85, 0x04).set(212, 0x0C);
    EXPECT_TRUE(decodeModuleEeprom(active.bytes).has_dom);
}

TEST(ModuleEepromCmis, EveryCmisIdentifierUsesTheCmisLayout)
{
    for (uint8_t identifier : {0x18, 0x19, 0x1B, 0x1E, 0x1F, 0x20}) {
        Image m = cmisOptic();
        m.set(0, identifier);
        EXPECT_EQ(decodeModuleEeprom(m.bytes).standard, ModuleStandard::Cmis) << int(identifier);
    }
}

// ---- SFF-8472 images ----

constexpr size_t kSff8472Size = 512;
constexpr size_t kA2 = 256;

Image sfpOptic()
{
    Image m(kSff8472Size);
    m.set(0, 0x03).set(92, 0x68).set(93, 0x80); // DDM, internally calibrated; alarm flags
    m.u16s(kA2 + 0, {0x5A00, 0xF600, 0x5500, 0xFB00});
    m.u16s(kA2 + 8, {36000, 30000, 35000, 31000});
    m.u16s(kA2 + 16, {7500, 1000, 7000, 1500});
    m.u16s(kA2 + 24, {10000, 1259, 7943, 1585});
    m.u16s(kA2 + 32, {10000, 100, 7943, 158});
    m.s16(kA2 + 96, 0x1E80).u16(kA2 + 98, 33100);
    m.u16(kA2 + 100, 3500).u16(kA2 + 102, 5012).u16(kA2 + 104, 3981);
    m.set(kA2 + 110, 0x04); // TX fault
    return m;
}

TEST(ModuleEepromSff8472, DecodesAnInternallyCalibratedModule)
{
    ModuleDom dom = decodeModuleEeprom(sfpOptic().bytes);
    EXPECT_EQ(dom.identifier, 0x03);
    EXPECT_EQ(dom.standard, ModuleStandard::Sff8472);
    ASSERT_TRUE(dom.has_dom);
    EXPECT_TRUE(near(dom.temperature_celsius, 30.5));
    EXPECT_TRUE(near(dom.supply_volts, 3.31));
    ASSERT_EQ(dom.lanes.size(), 1U);
    EXPECT_TRUE(near(dom.lanes[0].tx_bias_amperes, 7 * kMilli));
    EXPECT_TRUE(near(dom.lanes[0].tx_power_watts, 0.5012 * kMilli));
    EXPECT_TRUE(near(dom.lanes[0].rx_power_watts, 0.3981 * kMilli));
    EXPECT_TRUE(dom.lanes[0].tx_fault);
    EXPECT_FALSE(dom.lanes[0].rx_los);
    EXPECT_TRUE(limits(dom.temperature, 90, -10, 85, -5));
    EXPECT_TRUE(limits(dom.supply, 3.6, 3.0, 3.5, 3.1));
    EXPECT_TRUE(limits(dom.tx_bias, 15 * kMilli, 2 * kMilli, 14 * kMilli, 3 * kMilli));
    EXPECT_TRUE(
        limits(dom.tx_power, 1 * kMilli, 0.1259 * kMilli, 0.7943 * kMilli, 0.1585 * kMilli));
    EXPECT_TRUE(limits(dom.rx_power, 1 * kMilli, 0.01 * kMilli, 0.7943 * kMilli, 0.0158 * kMilli));
}

TEST(ModuleEepromSff8472, AppliesExternalCalibrationToValuesAndThresholds)
{
    Image m = sfpOptic();
    m.set(92, 0x58);                             // DDM, externally calibrated
    m.f32(kA2 + 64, 0x3A800000);                 // Rx_PWR(2) = 2^-10
    m.f32(kA2 + 68, 0x40000000);                 // Rx_PWR(1) = 2.0
    m.f32(kA2 + 72, 0x41200000);                 // Rx_PWR(0) = 10.0
    m.u16(kA2 + 76, 0x0200).s16(kA2 + 78, 100);  // bias: x2 + 100
    m.u16(kA2 + 80, 0x0180).s16(kA2 + 82, -12);  // TX power: x1.5 - 12
    m.u16(kA2 + 84, 0x0100).s16(kA2 + 86, 256);  // temperature: +1 C
    m.u16(kA2 + 88, 0x0100).s16(kA2 + 90, -100); // supply: -10 mV
    ModuleDom dom = decodeModuleEeprom(m.bytes);
    ASSERT_TRUE(dom.has_dom);
    EXPECT_TRUE(near(dom.temperature_celsius, 31.5));
    EXPECT_TRUE(near(dom.supply_volts, 3.30));
    EXPECT_TRUE(near(dom.lanes[0].tx_bias_amperes, 7100 * 2e-6));
    EXPECT_TRUE(near(dom.lanes[0].tx_power_watts, (1.5 * 5012 - 12) * 1e-7));
    double rx = 3981.0 * 3981.0 / 1024.0 + 2.0 * 3981.0 + 10.0;
    EXPECT_TRUE(near(dom.lanes[0].rx_power_watts, rx * 1e-7, 1e-15));
    EXPECT_TRUE(near(dom.temperature.high_alarm, 91));
    EXPECT_TRUE(near(dom.tx_bias.high_alarm, (2 * 7500 + 100) * 2e-6));
    EXPECT_TRUE(near(dom.rx_power.low_alarm, (100.0 * 100.0 / 1024 + 210) * 1e-7, 1e-15));
}

TEST(ModuleEepromSff8472, ModuleWithoutDiagnosticsNeedsOnlyA0h)
{
    Image m = sfpOptic();
    m.set(92, 0x00);
    std::vector<uint8_t> a0(m.bytes.begin(), m.bytes.begin() + 256);
    for (const auto& blob : {a0, m.bytes})
        EXPECT_EQ(decodeModuleEeprom(blob), noDom(0x03, ModuleStandard::Sff8472));
}

TEST(ModuleEepromSff8472, ThresholdsOnlyWhenAlarmFlagsAreImplemented)
{
    Image m = sfpOptic();
    m.set(93, 0x00);
    ModuleDom dom = decodeModuleEeprom(m.bytes);
    EXPECT_TRUE(dom.has_dom);
    EXPECT_TRUE(absent(dom.temperature) && absent(dom.rx_power));
}

TEST(ModuleEepromSff8472, DataNotReadyMeansNoDom)
{
    Image m = sfpOptic();
    m.set(kA2 + 110, 0x01);
    EXPECT_FALSE(decodeModuleEeprom(m.bytes).has_dom);
}

// ---- No module, unknown modules, truncated images ----

TEST(ModuleEepromAny, NoModuleOrUnknownIdentifierIsUnknownWithoutDom)
{
    for (uint8_t identifier : {0x00, 0xFF, 0x0E, 0x01, 0x80}) {
        std::vector<uint8_t> blob(256, 0x00);
        blob[0] = identifier;
        ModuleDom dom = decodeModuleEeprom(blob);
        EXPECT_EQ(dom, noDom(identifier, ModuleStandard::Unknown));
    }
    EXPECT_EQ(decodeModuleEeprom(std::vector<uint8_t>{0xFF}).standard, ModuleStandard::Unknown);
}

TEST(ModuleEepromAny, ShortImagesThrowNamingTheStandardAndSize)
{
    auto message = [](std::vector<uint8_t> blob) -> std::string {
        try {
            decodeModuleEeprom(blob);
        } catch (const DecodeError& e) {
            return e.what();
        }
        return "no error";
    };
    EXPECT_EQ(message({}), "module EEPROM of 0 bytes: no identifier at offset 0");

    auto prefix = [](const Image& m, size_t size) {
        return std::vector<uint8_t>(m.bytes.begin(), m.bytes.begin() + ptrdiff_t(size));
    };
    EXPECT_EQ(message(prefix(sff8636Optic(), 100)),
              "SFF-8636 EEPROM of 100 bytes: at least 256 expected");

    EXPECT_EQ(message(prefix(cmisOptic(), 256)),
              "CMIS EEPROM of 256 bytes: at least 768 expected (a paged module: "
              "pages 01h, 02h, 10h and 11h)");
    EXPECT_EQ(message({0x18, 0x00}), "CMIS EEPROM of 2 bytes: at least 256 expected");

    EXPECT_EQ(message(prefix(sfpOptic(), 300)),
              "SFF-8472 EEPROM of 300 bytes: at least 512 expected (diagnostics implemented: A2h)");
    EXPECT_EQ(message({0x03}), "SFF-8472 EEPROM of 1 bytes: at least 256 expected");
}

// ---- Read plan ----

std::vector<uint8_t> lowerPage(const Image& m)
{
    return {m.bytes.begin(), m.bytes.begin() + 128};
}

// The kernel's rules for one read (net/ethtool/eeprom.c) and the plan's fit in the blob.
void expectLegal(const std::vector<EepromRead>& plan, size_t blob_size)
{
    std::vector<bool> filled(blob_size, false);
    std::fill(filled.begin(), filled.begin() + 128, true); // the lower page, read first
    for (const EepromRead& r : plan) {
        EXPECT_TRUE(r.i2c_address == 0x50 || r.i2c_address == 0x51);
        EXPECT_GE(r.length, 1);
        EXPECT_LE(r.length, 128);
        EXPECT_LE(r.offset + r.length, 256);
        EXPECT_FALSE(r.offset < 128 && r.offset + r.length > 128) << "crosses a half page";
        EXPECT_TRUE(r.page == 0 || r.offset >= 128) << "page " << int(r.page) << " below 128";
        ASSERT_LE(r.blob_offset + r.length, blob_size);
        for (size_t i = r.blob_offset; i < r.blob_offset + r.length; ++i) {
            EXPECT_FALSE(filled[i]) << "blob byte " << i << " read twice";
            filled[i] = true;
        }
    }
}

TEST(ModuleEepromReadPlan, Sff8636ReadsPage00AndPage03)
{
    Image m = sff8636Optic();
    std::vector<EepromRead> expected{{0x50, 0x00, 0, 128, 128, 128},
                                     {0x50, 0x03, 0, 128, 128, 512}};
    EXPECT_EQ(eepromReadPlan(lowerPage(m)), expected);
    EXPECT_EQ(eepromBlobSize(lowerPage(m)), 640U);
    expectLegal(eepromReadPlan(lowerPage(m)), 640);

    m.set(2, 0x04); // flat: page 00h only, same blob layout
    EXPECT_EQ(eepromReadPlan(lowerPage(m)), (std::vector<EepromRead>{expected[0]}));
    EXPECT_EQ(eepromBlobSize(lowerPage(m)), 640U);
}

TEST(ModuleEepromReadPlan, CmisReadsPages00To11WhenPaged)
{
    Image m = cmisOptic();
    std::vector<EepromRead> expected{{0x50, 0x00, 0, 128, 128, 128},
                                     {0x50, 0x01, 0, 128, 128, 256},
                                     {0x50, 0x02, 0, 128, 128, 384},
                                     {0x50, 0x10, 0, 128, 128, 512},
                                     {0x50, 0x11, 0, 128, 128, 640}};
    EXPECT_EQ(eepromReadPlan(lowerPage(m)), expected);
    EXPECT_EQ(eepromBlobSize(lowerPage(m)), 768U);
    expectLegal(expected, 768);

    m.set(2, 0x80);
    EXPECT_EQ(eepromReadPlan(lowerPage(m)), (std::vector<EepromRead>{expected[0]}));
    EXPECT_EQ(eepromBlobSize(lowerPage(m)), 256U);
}

TEST(ModuleEepromReadPlan, Sff8472ReadsA2hOnlyWithDiagnostics)
{
    Image m = sfpOptic();
    std::vector<EepromRead> expected{
        {0x50, 0, 0, 128, 128, 128}, {0x51, 0, 0, 0, 128, 256}, {0x51, 0, 0, 128, 128, 384}};
    EXPECT_EQ(eepromReadPlan(lowerPage(m)), expected);
    EXPECT_EQ(eepromBlobSize(lowerPage(m)), 512U);
    expectLegal(expected, 512);

    m.set(92, 0x00);
    EXPECT_EQ(eepromReadPlan(lowerPage(m)), (std::vector<EepromRead>{expected[0]}));
    EXPECT_EQ(eepromBlobSize(lowerPage(m)), 512U);
}

TEST(ModuleEepromReadPlan, UnknownModuleNeedsNoMoreReads)
{
    for (uint8_t identifier : {0x00, 0xFF, 0x0E}) {
        std::vector<uint8_t> lower(128, 0);
        lower[0] = identifier;
        EXPECT_TRUE(eepromReadPlan(lower).empty());
        EXPECT_EQ(eepromBlobSize(lower), 128U);
    }
}

TEST(ModuleEepromReadPlan, ShortLowerPageThrows)
{
    std::vector<uint8_t> lower(127, 0x11);
    EXPECT_THROW(eepromReadPlan(lower), DecodeError);
    EXPECT_THROW(eepromBlobSize(lower), DecodeError);
    EXPECT_THROW(eepromReadPlan({}), DecodeError);
}

// A module answering page reads out of a blob: the plan run against it rebuilds the blob.
std::vector<uint8_t> readThroughPlan(const std::vector<uint8_t>& module, size_t i2c_a2_base)
{
    auto byteAt = [&](const EepromRead& r, size_t i) -> uint8_t {
        size_t page_offset = r.offset + i;
        if (r.i2c_address == 0x51)
            return module.at(i2c_a2_base + page_offset);
        if (page_offset < 128)
            return module.at(page_offset);
        size_t slot = r.page < 0x10 ? r.page : 3 + (r.page - 0x10); // our blob's page order
        return module.at(slot * 128 + page_offset);
    };
    std::vector<uint8_t> lower(module.begin(), module.begin() + 128);
    std::vector<uint8_t> blob(eepromBlobSize(lower), 0);
    std::copy(lower.begin(), lower.end(), blob.begin());
    for (const EepromRead& r : eepromReadPlan(lower))
        for (size_t i = 0; i < r.length; ++i)
            blob.at(r.blob_offset + i) = byteAt(r, i);
    return blob;
}

// ---- Real captures (tests/data/module/SOURCES.md) ----

// Juniper QFX5240, OSFP-800G-DR8 at xcvr-0/0/40. In the same report Junos printed: module
// temperature 57 degrees C ("show chassis environment"), yellow/red alarm 73/76 C derived from the
// module's temperature high warning/alarm ("show chassis enhanced-temperature-thresholds"), and
// applications whose media lanes reach lane 8 (800GBASE-DR8, 8 lanes; 2 x 400GBASE-DR4 at 1 and 5).
TEST(ModuleEepromCaptures, JuniperOsfp800gDr8)
{
    auto blob = readCapture("cmis_osfp_800g_dr8_juniper.hex", 768);
    ModuleDom dom = decodeModuleEeprom(blob);
    EXPECT_EQ(dom.identifier, 0x19);
    EXPECT_EQ(dom.standard, ModuleStandard::Cmis);
    ASSERT_TRUE(dom.has_dom);
    EXPECT_TRUE(near(dom.temperature_celsius, 57.0, 1.0)); // Junos: 57 degrees C
    EXPECT_TRUE(near(dom.temperature.high_alarm, 76));     // Junos red alarm
    EXPECT_TRUE(near(dom.temperature.high_warning, 73));   // Junos yellow alarm
    ASSERT_EQ(dom.lanes.size(), 8U);                       // Junos: 8 media lanes
    // From the specs' encodings (the report has no decoded lane values):
    EXPECT_TRUE(near(dom.temperature_celsius, 0x39EE / 256.0));
    EXPECT_TRUE(near(dom.supply_volts, 3.3057));
    EXPECT_TRUE(limits(dom.temperature, 76, -6, 73, -3));
    EXPECT_TRUE(limits(dom.supply, 3.7, 3.0, 3.6, 3.05));
    EXPECT_TRUE(
        limits(dom.tx_power, 3.981 * kMilli, 0.257 * kMilli, 3.1622 * kMilli, 0.3235 * kMilli));
    EXPECT_TRUE(limits(dom.tx_bias, 130 * kMilli, 10 * kMilli, 125 * kMilli, 15 * kMilli));
    EXPECT_TRUE(
        limits(dom.rx_power, 4.7863 * kMilli, 0.1288 * kMilli, 3.8018 * kMilli, 0.1819 * kMilli));
    std::vector<double> tx_mw{1.9723, 1.4881, 1.5262, 1.3601, 1.772, 1.1713, 1.8687, 1.5301};
    std::vector<double> rx_mw{1.6946, 1.7029, 2.1019, 1.7118, 1.6553, 1.9279, 1.0707, 1.5247};
    for (size_t i = 0; i < 8; ++i) {
        const ModuleLane& lane = dom.lanes[i];
        EXPECT_TRUE(near(lane.tx_bias_amperes, 69.982 * kMilli)) << i;
        EXPECT_TRUE(near(lane.tx_power_watts, tx_mw[i] * kMilli)) << i;
        EXPECT_TRUE(near(lane.rx_power_watts, rx_mw[i] * kMilli)) << i;
        EXPECT_FALSE(lane.tx_fault || lane.rx_los) << i;
    }
    EXPECT_EQ(readThroughPlan(blob, 0), blob);
}

// Juniper QFX5240, Credo active electrical cable at xcvr-0/0/0: active copper, so not "no DOM";
// it advertises temperature and supply monitors and no lane monitors. Junos printed 50 C (taken
// minutes apart from the dump) and yellow/red alarm 70/75 C from the module's thresholds.
TEST(ModuleEepromCaptures, JuniperOsfpActiveElectricalCable)
{
    auto blob = readCapture("cmis_osfp_aec_credo_juniper.hex", 768);
    ModuleDom dom = decodeModuleEeprom(blob);
    EXPECT_EQ(dom.identifier, 0x19);
    ASSERT_TRUE(dom.has_dom);
    EXPECT_TRUE(near(dom.temperature_celsius, 50.0, 1.5)); // Junos: 50 degrees C
    EXPECT_TRUE(near(dom.temperature.high_alarm, 75));     // Junos red alarm
    EXPECT_TRUE(near(dom.temperature.high_warning, 70));   // Junos yellow alarm
    EXPECT_TRUE(near(dom.temperature_celsius, 0x3344 / 256.0));
    EXPECT_TRUE(near(dom.supply_volts, 3.298));
    EXPECT_TRUE(limits(dom.supply, 3.565, 3.035, 3.465, 3.135));
    ASSERT_EQ(dom.lanes.size(), 8U);
    for (const ModuleLane& lane : dom.lanes)
        EXPECT_EQ(lane, ModuleLane{});
    EXPECT_TRUE(absent(dom.tx_bias) && absent(dom.tx_power) && absent(dom.rx_power));
    EXPECT_EQ(readThroughPlan(blob, 0), blob);
}

// Finisar QSFP28 on an Arista 7280CR3 (sonic-utilities #2379). The report has no decoded DOM;
// the values are the specs' encodings. Lane 1 is dark (bias 0, TX1 LOS and CDR LOL flagged on the
// host side), and the module does not advertise TX power monitoring (byte 220 = 0x38).
TEST(ModuleEepromCaptures, FinisarQsfp28OnArista)
{
    auto blob = readCapture("sff8636_finisar_qsfp28_arista.hex", 640);
    ModuleDom dom = decodeModuleEeprom(blob);
    EXPECT_EQ(dom.identifier, 0x11);
    EXPECT_EQ(dom.standard, ModuleStandard::Sff8636);
    ASSERT_TRUE(dom.has_dom);
    EXPECT_TRUE(near(dom.temperature_celsius, 0x1385 / 256.0));
    EXPECT_TRUE(near(dom.supply_volts, 3.2979));
    ASSERT_EQ(dom.lanes.size(), 4U);
    std::vector<double> rx_mw{1.3001, 1.3529, 1.1193, 1.2099};
    std::vector<double> bias_ma{0.0, 7.998, 7.936, 7.936};
    for (size_t i = 0; i < 4; ++i) {
        EXPECT_TRUE(near(dom.lanes[i].rx_power_watts, rx_mw[i] * kMilli)) << i;
        EXPECT_TRUE(near(dom.lanes[i].tx_bias_amperes, bias_ma[i] * kMilli)) << i;
        EXPECT_FALSE(dom.lanes[i].tx_power_watts) << i;
        EXPECT_FALSE(dom.lanes[i].rx_los || dom.lanes[i].tx_fault) << i;
    }
    EXPECT_TRUE(limits(dom.temperature, 75, -5, 70, 0));
    EXPECT_TRUE(limits(dom.supply, 3.63, 2.97, 3.465, 3.1));
    EXPECT_TRUE(
        limits(dom.rx_power, 2.1878 * kMilli, 0.0398 * kMilli, 1.7378 * kMilli, 0.0794 * kMilli));
    EXPECT_TRUE(limits(dom.tx_bias, 12 * kMilli, 3 * kMilli, 11 * kMilli, 4 * kMilli));
    EXPECT_TRUE(absent(dom.tx_power));
}

// Molex QSFP+ passive DAC (sonic-utilities test data): copper, so no DOM although bytes 22-23
// are not zero.
TEST(ModuleEepromCaptures, MolexQsfpPassiveDac)
{
    auto blob = readCapture("sff8636_molex_qsfp_dac.hex", 256);
    EXPECT_EQ(decodeModuleEeprom(blob), noDom(0x0D, ModuleStandard::Sff8636));
}

// Intel E10GSFPSRX on an E810 (netdev, 2025): no fibre on the receiver, so RX LOS is set with
// 0.0021 mW. The mail has no decoded DOM; the values are the specs' encodings.
TEST(ModuleEepromCaptures, IntelSfpPlusWithRxLos)
{
    auto blob = readCapture("sff8472_intel_e10gsfpsrx_ice.hex", 512);
    ModuleDom dom = decodeModuleEeprom(blob);
    EXPECT_EQ(dom.standard, ModuleStandard::Sff8472);
    ASSERT_TRUE(dom.has_dom);
    EXPECT_TRUE(near(dom.temperature_celsius, 0x2356 / 256.0));
    EXPECT_TRUE(near(dom.supply_volts, 3.4272));
    ASSERT_EQ(dom.lanes.size(), 1U);
    EXPECT_TRUE(near(dom.lanes[0].tx_bias_amperes, 8.688 * kMilli));
    EXPECT_TRUE(near(dom.lanes[0].tx_power_watts, 0.578 * kMilli));
    EXPECT_TRUE(near(dom.lanes[0].rx_power_watts, 0.0021 * kMilli));
    EXPECT_TRUE(dom.lanes[0].rx_los);
    EXPECT_FALSE(dom.lanes[0].tx_fault);
    EXPECT_TRUE(limits(dom.temperature, 93, -13, 88, -8));
    EXPECT_TRUE(limits(dom.supply, 3.7, 2.9, 3.6, 3.0));
    EXPECT_TRUE(limits(dom.tx_bias, 13 * kMilli, 4 * kMilli, 12.5 * kMilli, 5 * kMilli));
    EXPECT_TRUE(
        limits(dom.tx_power, 1 * kMilli, 0.2512 * kMilli, 0.7943 * kMilli, 0.3162 * kMilli));
    EXPECT_TRUE(limits(dom.rx_power, 1 * kMilli, 0.01 * kMilli, 0.7943 * kMilli, 0.0158 * kMilli));
    EXPECT_EQ(readThroughPlan(blob, 256), blob);
}

// MikroTik S+AO0005 AOC (netdev, 2022): A0h says no diagnostics, and `ethtool -m` in the same
// mail printed none, although A2h holds numbers.
TEST(ModuleEepromCaptures, MikrotikAocWithoutDiagnostics)
{
    auto blob = readCapture("sff8472_mikrotik_s_ao0005.hex", 512);
    EXPECT_EQ(decodeModuleEeprom(blob), noDom(0x03, ModuleStandard::Sff8472));
    EXPECT_EQ(eepromReadPlan(std::vector<uint8_t>(blob.begin(), blob.begin() + 128)).size(), 1U);
}

} // namespace
