// The module EEPROM decoder on hand-built CMIS (QSFP-DD, OSFP) images: advertised lane monitors,
// bias multipliers, the media lanes the applications use, flat and passive copper modules.
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

} // namespace
