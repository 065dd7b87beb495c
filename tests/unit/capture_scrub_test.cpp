// The capture's scrubbers: identifiers are replaced by fakes of the same shape, the same fake for
// the same original wherever it stands, and what nicd needs from the text (the default route, PCI
// addresses, versions, a module's diagnostics) comes through unchanged.
#include "capture/identifier_map.hpp"
#include "capture/module_serial.hpp"
#include "capture/scrub_text.hpp"
#include "provision/default_route.hpp"
#include "signals/module_eeprom.hpp"
#include "support/module_images.hpp"

#include <gtest/gtest.h>

using namespace nicd::sim::capture;

TEST(CaptureScrub, TheSameMacGetsTheSameFakeAndOthersDifferentOnes)
{
    IdentifierMap ids;
    auto a = ids.hwAddress("b8:3f:d2:5a:00:02");
    auto b = ids.hwAddress("b8:3f:d2:5a:00:03");
    EXPECT_EQ(a, "02:00:00:00:00:01");
    EXPECT_EQ(b, "02:00:00:00:00:02");
    EXPECT_EQ(ids.hwAddress("B8:3F:D2:5A:00:02"), a) << "hex case does not make a new MAC";
    // In a kernel line too, and an IPoIB address (20 bytes) keeps its length.
    EXPECT_EQ(scrubFreeText("peer b8:3f:d2:5a:00:03 up", ids), "peer " + b + " up");
    auto ipoib = ids.hwAddress("00:00:10:87:fe:80:00:00:00:00:00:00:b8:3f:d2:03:00:5a:00:08");
    EXPECT_EQ(ipoib, "00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:00:01");
}

TEST(CaptureScrub, AddressesThatIdentifyNothingStay)
{
    IdentifierMap ids;
    EXPECT_EQ(ids.hwAddress("00:00:00:00:00:00"), "00:00:00:00:00:00");
    EXPECT_EQ(ids.hwAddress("ff:ff:ff:ff:ff:ff"), "ff:ff:ff:ff:ff:ff");
    EXPECT_EQ(ids.guid("0000:0000:0000:0000"), "0000:0000:0000:0000");
    EXPECT_EQ(formatIpv4(ids.ipv4(*parseIpv4("127.0.0.1"))), "127.0.0.1");
    EXPECT_TRUE(ids.knownForms().empty());
}

TEST(CaptureScrub, FreeTextLeavesPciAddressesVersionsAndTimesAlone)
{
    IdentifierMap ids;
    const std::string line = "[11176.517416] mlx5_core 0000:05:00.0: firmware 28.41.1000 at "
                             "12:34:56, E-Switch: cmd[22] 5.15.0-91";
    EXPECT_EQ(scrubFreeText(line, ids), line);
    EXPECT_EQ(scrubFreeText("from 10.1.2.3, gw 10.1.2.30.", ids),
              "from 198.18.0.1, gw 198.18.0.2.");
    EXPECT_EQ(scrubFreeText("node b83f:d203:005a:1a00", ids), "node 0200:0000:0000:0001");
}

TEST(CaptureScrub, KnownFormsAreReplacedEverywhereButInsideLongerWords)
{
    IdentifierMap ids;
    ids.hostname("gpu01");
    ids.guid("b83f:d203:005a:1a00");
    auto forms = ids.knownForms();
    EXPECT_EQ(replaceKnownForms("gpu01 gpu01.example.com gpu010 xgpu01 b83fd203005a1a00", forms),
              "host-1 host-1.example.com gpu010 xgpu01 0200000000000001");
}

TEST(CaptureScrub, KeepingReturnsEverythingAsItWas)
{
    IdentifierMap ids(true);
    EXPECT_EQ(ids.hwAddress("b8:3f:d2:5a:00:02"), "b8:3f:d2:5a:00:02");
    EXPECT_EQ(scrubFreeText("at 10.1.2.3", ids), "at 10.1.2.3");
    EXPECT_TRUE(ids.knownForms().empty());
}

TEST(CaptureScrub, RoutesKeepTheDefaultRouteAndTheLayout)
{
    const std::string route =
        "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n"
        "eno1\t00000000\t0100A8C0\t0003\t0\t0\t100\t00000000\t0\t0\t0\n"
        "eno1\t0000A8C0\t00000000\t0001\t0\t0\t100\t00FFFFFF\t0\t0\t0\n";
    IdentifierMap ids;
    auto out = scrubIpv4Routes(route, ids);
    EXPECT_EQ(out.size(), route.size());
    EXPECT_EQ(out.find("0100A8C0"), std::string::npos);
    EXPECT_EQ(out.find("0000A8C0"), std::string::npos);
    EXPECT_NE(out.find("00FFFFFF"), std::string::npos) << "masks identify nothing";
    EXPECT_EQ(nicd::provision::ipv4DefaultRouteNetdevs(out),
              nicd::provision::ipv4DefaultRouteNetdevs(route));
    // The gateway's fake is the one the same address gets in a kernel line.
    EXPECT_NE(out.find("010012C6"), std::string::npos) << out;
    EXPECT_EQ(scrubFreeText("via 192.168.0.1", ids), "via 198.18.0.1");

    const std::string v6 = "00000000000000000000000000000000 00 00000000000000000000000000000000 "
                           "00 fe800000000000000000000000000001 00000400 00000001 00000000 "
                           "00000003 ens1f0np0\n";
    auto out6 = scrubIpv6Routes(v6, ids);
    EXPECT_EQ(out6.find("fe800000000000000000000000000001"), std::string::npos);
    EXPECT_EQ(nicd::provision::ipv6DefaultRouteNetdevs(out6), std::set<std::string>{"ens1f0np0"});
}

TEST(CaptureScrub, ModuleSerialIsReplacedAndTheDiagnosticsStay)
{
    for (auto [name, size] : {std::pair{"cmis_osfp_800g_dr8_juniper.hex", size_t{768}},
                              std::pair{"sff8636_finisar_qsfp28_arista.hex", size_t{640}},
                              std::pair{"sff8472_intel_e10gsfpsrx_ice.hex", size_t{512}}}) {
        SCOPED_TRACE(name);
        auto blob = nicd::test::readCapture(name, size);
        auto serial = moduleSerial(blob);
        ASSERT_FALSE(serial.empty());
        IdentifierMap ids;
        auto out = scrubModuleSerial(blob, ids);
        EXPECT_EQ(moduleSerial(out), "SN00000000000001");
        std::string bytes(out.begin(), out.end());
        EXPECT_EQ(bytes.find(serial), std::string::npos);
        EXPECT_EQ(nicd::signals::decodeModuleEeprom(out), nicd::signals::decodeModuleEeprom(blob));
        // Only the 16 serial bytes and the checksum byte may change.
        size_t changed = 0;
        for (size_t i = 0; i < blob.size(); ++i)
            changed += blob[i] != out[i] ? 1 : 0;
        EXPECT_LE(changed, 17U);
    }
}

TEST(CaptureScrub, ARightChecksumIsMadeRightAgain)
{
    auto blob = nicd::test::readCapture("sff8472_intel_e10gsfpsrx_ice.hex", 512);
    auto sum = [](const std::vector<uint8_t>& b) {
        unsigned s = 0;
        for (size_t i = 64; i < 95; ++i)
            s += b[i];
        return static_cast<uint8_t>(s & 0xff);
    };
    ASSERT_EQ(sum(blob), blob[95]) << "the capture's CC_EXT is right to begin with";
    IdentifierMap ids;
    auto out = scrubModuleSerial(blob, ids);
    EXPECT_EQ(sum(out), out[95]);
    EXPECT_NE(out, blob);
}
