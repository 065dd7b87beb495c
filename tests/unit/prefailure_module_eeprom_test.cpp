// The module EEPROM decoder on what is not one standard's layout (no module, unknown modules,
// truncated images), the read plan, and real captures from public reports (tests/data/module,
// see SOURCES.md), checked against what the reporting tool printed where the report has it. The
// hand-built images of each standard: signals_module_{sff8636,cmis,sff8472}_test.cpp.
#include "prefailure/decode_error.hpp"
#include "prefailure/module_eeprom.hpp"
#include "support/module_images.hpp"

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
using namespace nicd::test;
using nicd::prefailure::DecodeError;
using nicd::prefailure::decodeModuleEeprom;
using nicd::prefailure::eepromBlobSize;
using nicd::prefailure::EepromRead;
using nicd::prefailure::eepromReadPlan;

namespace {

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
