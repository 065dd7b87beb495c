// Module EEPROM images for the decoder tests: a byte-image builder (big-endian writes at the
// specs' offsets), hand-built SFF-8636, CMIS and SFF-8472 optics, the reader of the public hex
// captures in tests/data/module, and matchers for values and thresholds.
#pragma once

#include "model/prefailure_readings.hpp"

#include <cmath>
#include <cstdint>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

namespace nicd::test {

inline constexpr double kMilli = 1e-3;

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
inline std::vector<uint8_t> readCapture(const std::string& name, size_t size)
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

inline ::testing::AssertionResult near(const std::optional<double>& actual, double expected,
                                       double tolerance = 1e-12)
{
    if (!actual)
        return ::testing::AssertionFailure() << "absent, expected " << expected;
    if (std::abs(*actual - expected) > tolerance)
        return ::testing::AssertionFailure() << *actual << " != " << expected;
    return ::testing::AssertionSuccess();
}

inline ::testing::AssertionResult limits(const DomThresholds& t, double high_alarm,
                                         double low_alarm, double high_warning, double low_warning,
                                         double tolerance = 1e-12)
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

inline bool absent(const DomThresholds& t)
{
    return t == DomThresholds{};
}

// What a module without diagnostics decodes to: its identifier and standard, nothing else.
inline ModuleDom noDom(uint8_t identifier, ModuleStandard standard)
{
    ModuleDom dom;
    dom.identifier = identifier;
    dom.standard = standard;
    return dom;
}

// ---- SFF-8636 images ----

inline constexpr size_t kSff8636Size = 640;
inline constexpr size_t kSff8636Page03 = 3 * 128;

inline Image sff8636Optic()
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

// ---- CMIS images ----

inline constexpr size_t kCmisSize = 768;
inline constexpr size_t kPage01 = 128;
inline constexpr size_t kPage02 = 256;
inline constexpr size_t kPage11 = 512;

inline Image cmisOptic()
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

// ---- SFF-8472 images ----

inline constexpr size_t kSff8472Size = 512;
inline constexpr size_t kA2 = 256;

inline Image sfpOptic()
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

} // namespace nicd::test
