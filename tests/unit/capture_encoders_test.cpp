// What the capture writes for a real node decodes, with nicd's own parsers, to what nicd's
// kernel readers gave: FEC statistics, devlink health reporters, ethtool statistics and module
// EEPROM images built page by page as nicd reads them from the kernel.
#include "capture/tool_encoders.hpp"
#include "prefailure/devlink_health.hpp"
#include "prefailure/fec_stats.hpp"
#include "support/ethtool_text_stats.hpp"
#include "support/module_images.hpp"

#include <nicd/plugin/sdk/ethtool_text.h>

#include <fstream>
#include <limits>
#include <sstream>

#include <gtest/gtest.h>

using namespace nicd;
using namespace nicd::sim::capture;
namespace sdk = nicd::plugin::sdk;

namespace {

std::string slurp(const std::string& path)
{
    std::ifstream in(path);
    EXPECT_TRUE(in) << path;
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::string dataFile(const std::string& rel)
{
    return slurp(std::string(NICD_SOURCE_DIR) + "/tests/data/" + rel);
}

} // namespace

TEST(CaptureEncoders, FecJsonDecodesToWhatTheKernelGave)
{
    FecStats s;
    s.netdev = "ens1f0np0";
    s.active = "RS";
    s.corrected_blocks = FecCounter{120, {30, 30, 30, 30}};
    s.uncorrectable_blocks = FecCounter{0, {}};
    s.corrected_bits = FecCounter{360, {}};
    EXPECT_EQ(prefailure::parseFecJson(fecJson(s), "ens1f0np0"), s);

    FecStats no_link; // no active mode, no statistics
    no_link.netdev = "ens2f0np0";
    EXPECT_EQ(prefailure::parseFecJson(fecJson(no_link), "ens2f0np0"), no_link);
}

TEST(CaptureEncoders, FecCapturesOfRealCardsSurviveTheRoundTrip)
{
    for (const char* name :
         {"connectx7-enp1s0f0np0.json", "ice-ens21f0np0.json", "fbnic-eth0.json"}) {
        SCOPED_TRACE(name);
        auto original = prefailure::parseFecJson(dataFile(std::string("fec/") + name), "");
        EXPECT_EQ(prefailure::parseFecJson(fecJson(original), ""), original);
    }
}

TEST(CaptureEncoders, DevlinkHealthJsonDecodesToTheSameReporters)
{
    for (const char* name :
         {"mlx5-pfs-vnic-ports.json", "mlx5-port-reporters.json", "mlxsw-fw-fatal-error.json"}) {
        SCOPED_TRACE(name);
        auto original =
            prefailure::parseDevlinkHealthJson(dataFile(std::string("devlink/") + name));
        ASSERT_FALSE(original.empty());
        EXPECT_EQ(prefailure::parseDevlinkHealthJson(devlinkHealthJson(original)), original);
    }
    HealthReporter r{
        "pci/0000:1a:00.0", "fw_fatal", false, "error", std::numeric_limits<uint64_t>::max(), 3};
    auto text = devlinkHealthJson({r});
    EXPECT_NE(text.find("\"unlimited\""), std::string::npos) << "as iproute2 prints u64 max";
    EXPECT_EQ(prefailure::parseDevlinkHealthJson(text), std::vector<HealthReporter>{r});
}

TEST(CaptureEncoders, EthtoolTextReadsBackAsTheStatistics)
{
    auto fixture = test::parseEthtoolText(
        slurp(std::string(NICD_SHARED_DIR) + "/fixtures/ethtool/ethq-tests-mlx5_core.txt"));
    ASSERT_GT(fixture.size(), 100U);
    EXPECT_EQ(test::parseEthtoolText(ethtoolText(fixture)), fixture);
}

TEST(CaptureEncoders, ModuleBlobIsBuiltPageByPageAsNicdReadsIt)
{
    for (auto [name, size] : {std::pair{"cmis_osfp_800g_dr8_juniper.hex", size_t{768}},
                              std::pair{"sff8636_finisar_qsfp28_arista.hex", size_t{640}},
                              std::pair{"sff8472_intel_e10gsfpsrx_ice.hex", size_t{512}}}) {
        SCOPED_TRACE(name);
        auto module = test::readCapture(name, size);
        std::vector<prefailure::EepromRead> asked;
        auto blob = readModuleBlob([&](const prefailure::EepromRead& r) {
            asked.push_back(r);
            auto at = module.begin() + static_cast<std::ptrdiff_t>(r.blob_offset);
            return prefailure::Reply<std::vector<uint8_t>>::success({at, at + r.length});
        });
        ASSERT_TRUE(blob.ok()) << blob.message;
        EXPECT_EQ(blob.value.size(), size);
        EXPECT_EQ(prefailure::decodeModuleEeprom(blob.value),
                  prefailure::decodeModuleEeprom(module));
        ASSERT_FALSE(asked.empty());
        EXPECT_EQ(asked.front(), (prefailure::EepromRead{0x50, 0, 0, 0, 128, 0}));
    }
}

TEST(CaptureEncoders, AModuleReadThatFailsIsTheAnswer)
{
    auto module = test::readCapture("cmis_osfp_800g_dr8_juniper.hex", 768);
    int calls = 0;
    auto blob = readModuleBlob([&](const prefailure::EepromRead& r) {
        if (++calls == 2)
            return prefailure::Reply<std::vector<uint8_t>>::failed("page read: EIO");
        auto at = module.begin() + static_cast<std::ptrdiff_t>(r.blob_offset);
        return prefailure::Reply<std::vector<uint8_t>>::success({at, at + r.length});
    });
    EXPECT_FALSE(blob.ok());
    EXPECT_EQ(blob.message, "page read: EIO");

    auto absent = readModuleBlob([](const prefailure::EepromRead&) {
        return prefailure::Reply<std::vector<uint8_t>>::unsupported("no module");
    });
    EXPECT_EQ(absent.status, prefailure::Reply<std::vector<uint8_t>>::Status::Unsupported);
}
