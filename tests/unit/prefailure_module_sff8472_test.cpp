// The module EEPROM decoder on hand-built SFF-8472 (SFP) images: internal and external
// calibration, modules without diagnostics, implemented alarm flags, data not ready.
#include "prefailure/decode_error.hpp"
#include "prefailure/module_eeprom.hpp"
#include "support/module_images.hpp"

#include <gtest/gtest.h>

using namespace nicd;
using namespace nicd::test;
using nicd::prefailure::DecodeError;
using nicd::prefailure::decodeModuleEeprom;
using nicd::prefailure::eepromBlobSize;
using nicd::prefailure::EepromRead;
using nicd::prefailure::eepromReadPlan;

namespace {

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

} // namespace
