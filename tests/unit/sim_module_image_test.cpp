// The simulator's module EEPROM images decode, with the daemon's decoder, to the values they were
// built from (within each field's resolution): CMIS and SFF-8636 optics, the TX bias multiplier,
// lane flags, copper cables without DOM. The two sides share no code.
#include "module_image.hpp"
#include "prefailure/module_eeprom.hpp"

#include <cmath>
#include <span>

#include <gtest/gtest.h>

using namespace nicd;

namespace {

// Half a least significant bit of each field, in SI units.
constexpr double kCelsiusTolerance = 0.5 / 256;
constexpr double kVoltTolerance = 50e-6;
constexpr double kAmpereTolerance = 1e-6; // times the CMIS bias multiplier
constexpr double kWattTolerance = 0.05e-6 * 1e-3;
constexpr double kMilli = 1e-3;

::testing::AssertionResult near(const std::optional<double>& actual, double expected,
                                double tolerance)
{
    if (!actual)
        return ::testing::AssertionFailure() << "absent, expected " << expected;
    if (std::abs(*actual - expected) > tolerance * (1 + 1e-9))
        return ::testing::AssertionFailure() << *actual << " != " << expected;
    return ::testing::AssertionSuccess();
}

void expectLimits(const DomThresholds& got, const sim::ModuleLimits& want, double scale,
                  double tolerance)
{
    EXPECT_TRUE(near(got.high_alarm, want.high_alarm * scale, tolerance));
    EXPECT_TRUE(near(got.low_alarm, want.low_alarm * scale, tolerance));
    EXPECT_TRUE(near(got.high_warning, want.high_warning * scale, tolerance));
    EXPECT_TRUE(near(got.low_warning, want.low_warning * scale, tolerance));
}

void expectSpec(const ModuleDom& dom, const sim::ModuleSpec& spec, double bias_multiplier = 1)
{
    ASSERT_TRUE(dom.has_dom);
    EXPECT_EQ(dom.identifier, spec.identifier);
    EXPECT_TRUE(near(dom.temperature_celsius, spec.temperature_c, kCelsiusTolerance));
    EXPECT_TRUE(near(dom.supply_volts, spec.vcc_v, kVoltTolerance));
    double bias_tolerance = kAmpereTolerance * bias_multiplier;
    ASSERT_EQ(dom.lanes.size(), spec.lanes.size());
    for (size_t i = 0; i < spec.lanes.size(); ++i) {
        SCOPED_TRACE(i);
        const ModuleLane& got = dom.lanes[i];
        const sim::ModuleLaneSpec& want = spec.lanes[i];
        EXPECT_TRUE(near(got.tx_bias_amperes, want.bias_ma * kMilli, bias_tolerance));
        EXPECT_TRUE(near(got.tx_power_watts, want.tx_power_mw * kMilli, kWattTolerance));
        EXPECT_TRUE(near(got.rx_power_watts, want.rx_power_mw * kMilli, kWattTolerance));
        EXPECT_EQ(got.tx_fault, want.tx_fault);
        EXPECT_EQ(got.rx_los, want.rx_los);
    }
    expectLimits(dom.temperature, spec.temperature_c_limits, 1, kCelsiusTolerance);
    expectLimits(dom.supply, spec.vcc_v_limits, 1, kVoltTolerance);
    expectLimits(dom.tx_bias, spec.bias_ma_limits, kMilli, bias_tolerance);
    expectLimits(dom.tx_power, spec.tx_power_mw_limits, kMilli, kWattTolerance);
    expectLimits(dom.rx_power, spec.rx_power_mw_limits, kMilli, kWattTolerance);
}

size_t readerBlobSize(const std::vector<uint8_t>& image)
{
    return prefailure::eepromBlobSize(std::span(image).first(128));
}

TEST(SimModuleImage, Cmis400gOpticRoundTrips)
{
    sim::ModuleSpec spec;
    spec.lanes[1].rx_los = true;
    spec.lanes[2].tx_fault = true;
    auto image = sim::moduleImage(spec);
    EXPECT_EQ(image.size(), 768U);
    EXPECT_EQ(readerBlobSize(image), image.size());
    ModuleDom dom = prefailure::decodeModuleEeprom(image);
    EXPECT_EQ(dom.standard, ModuleStandard::Cmis);
    expectSpec(dom, spec);
}

TEST(SimModuleImage, Cmis800gOsfpWithLargeBiasUsesTheMultiplier)
{
    sim::ModuleSpec spec;
    spec.identifier = 0x19; // OSFP
    spec.part_number = "MMS4X00-NM";
    spec.lanes.resize(8, {180.0, 1.6, 1.4});
    spec.lanes[0].bias_ma = 175.5;
    spec.bias_ma_limits = {250, 20, 230, 40}; // above 131 mA: x2
    ModuleDom dom = prefailure::decodeModuleEeprom(sim::moduleImage(spec));
    expectSpec(dom, spec, 2);
}

TEST(SimModuleImage, Sff8636QsfpOpticRoundTrips)
{
    sim::ModuleSpec spec = sim::qsfp28Sr4();
    spec.lanes[3].rx_los = true;
    spec.lanes[0].tx_fault = true;
    auto image = sim::moduleImage(spec);
    EXPECT_EQ(image.size(), 640U);
    EXPECT_EQ(readerBlobSize(image), image.size());
    ModuleDom dom = prefailure::decodeModuleEeprom(image);
    EXPECT_EQ(dom.standard, ModuleStandard::Sff8636);
    expectSpec(dom, spec);
}

TEST(SimModuleImage, CopperCablesHaveNoDom)
{
    sim::ModuleSpec cmis;
    cmis.copper = true;
    cmis.identifier = 0x18;
    sim::ModuleSpec qsfp = sim::qsfp28Sr4();
    qsfp.copper = true;
    for (const auto& spec : {cmis, qsfp}) {
        auto image = sim::moduleImage(spec);
        EXPECT_EQ(readerBlobSize(image), image.size());
        ModuleDom dom = prefailure::decodeModuleEeprom(image);
        EXPECT_FALSE(dom.has_dom);
        EXPECT_EQ(dom.identifier, spec.identifier);
        EXPECT_NE(dom.standard, ModuleStandard::Unknown);
        EXPECT_TRUE(dom.lanes.empty());
        EXPECT_FALSE(dom.temperature_celsius);
        EXPECT_EQ(dom.rx_power, DomThresholds{});
    }
    EXPECT_EQ(sim::moduleImage(cmis).size(), 256U); // a flat module
}

bool inside(double value, const sim::ModuleLimits& l)
{
    return value > l.low_warning && value < l.high_warning;
}

TEST(SimModuleImage, DefaultsAreHealthyWithRealisticLimits)
{
    for (const auto& spec : {sim::ModuleSpec{}, sim::qsfp28Sr4()}) {
        EXPECT_TRUE(inside(spec.temperature_c, spec.temperature_c_limits));
        EXPECT_TRUE(inside(spec.vcc_v, spec.vcc_v_limits));
        for (const auto& lane : spec.lanes) {
            EXPECT_TRUE(inside(lane.bias_ma, spec.bias_ma_limits));
            EXPECT_TRUE(inside(lane.tx_power_mw, spec.tx_power_mw_limits));
            EXPECT_TRUE(inside(lane.rx_power_mw, spec.rx_power_mw_limits));
            EXPECT_FALSE(lane.tx_fault || lane.rx_los);
        }
        EXPECT_EQ(spec.temperature_c_limits.high_alarm, 75);
        double rx_low_alarm_dbm = 10 * std::log10(spec.rx_power_mw_limits.low_alarm);
        EXPECT_GE(rx_low_alarm_dbm, -12.0);
        EXPECT_LE(rx_low_alarm_dbm, -10.0);
    }
}

TEST(SimModuleImage, DbmToMilliwatts)
{
    EXPECT_DOUBLE_EQ(sim::dbmToMilliwatts(0), 1.0);
    EXPECT_DOUBLE_EQ(sim::dbmToMilliwatts(-10), 0.1);
    EXPECT_DOUBLE_EQ(sim::dbmToMilliwatts(10), 10.0);
    EXPECT_NEAR(sim::dbmToMilliwatts(-8.4), 0.1445, 1e-4);
    EXPECT_NEAR(sim::dbmToMilliwatts(6), sim::ModuleSpec{}.tx_power_mw_limits.high_alarm, 1e-3);
}

} // namespace
