// The module EEPROM decoder on hand-built SFF-8636 (QSFP28/56) images: values, thresholds and
// flags, advertised monitors, flat modules, copper, unprogrammed thresholds.
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

} // namespace
