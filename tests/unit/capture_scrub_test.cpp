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
    EXPECT_EQ(
        replaceKnownForms("gpu01 GPU01 gpu010 xgpu01 b83fd203005a1a00 B83FD203005A1A00", forms),
        "host-1 host-1 gpu010 xgpu01 0200000000000001 0200000000000001");
}

TEST(CaptureScrub, AnFqdnLosesItsDomainAndTeachesItsShortName)
{
    IdentifierMap ids;
    EXPECT_EQ(ids.hostname("GPU01.Cluster.Example.COM"), "host-1.domain-1.example");
    EXPECT_EQ(ids.hostname("gpu01"), "host-1") << "the short name is the same host";
    auto forms = ids.knownForms();
    EXPECT_EQ(replaceKnownForms("gpu01.cluster.example.com gpu01 Gpu01 gpu02.cluster.example.com "
                                "notcluster.example.com",
                                forms),
              "host-1.domain-1.example host-1 host-1 gpu02.domain-1.example "
              "notcluster.example.com");
}

TEST(CaptureScrub, MacsInEveryNotationAndTheirLinkLocalAddresses)
{
    IdentifierMap ids;
    const auto fake = ids.hwAddress("b8:3f:d2:5a:00:02");
    EXPECT_EQ(fake, "02:00:00:00:00:01");
    auto forms = ids.knownForms();
    // Wherever the MAC was met, its other notations are replaced too, and so is the EUI-64
    // link-local address SLAAC derives from it (which holds the MAC), in every IPv6 notation.
    EXPECT_EQ(replaceKnownForms("B8-3F-D2-5A-00-02 b83f.d25a.0002 b83fd25a0002 "
                                "fe80::ba3f:d2ff:fe5a:2 FE80::BA3F:D2FF:FE5A:2 "
                                "fe80000000000000ba3fd2fffe5a0002",
                                forms),
              "02-00-00-00-00-01 0200.0000.0001 020000000001 2001:db8::1 2001:db8::1 "
              "20010db8000000000000000000000001");
    // In free text, first met there.
    IdentifierMap fresh;
    EXPECT_EQ(scrubFreeText("peer b8-3f-d2-5a-00-03, sw aabb.ccdd.ee01.", fresh),
              "peer 02-00-00-00-00-01, sw 0200.0000.0002.");
}

TEST(CaptureScrub, CompressedIpv6InFreeText)
{
    IdentifierMap ids;
    EXPECT_EQ(scrubFreeText("nh fe80::1%ens1f0np0 gw 2001:db8:a::17, [fd00::5]:4791 ::1 "
                            "v4 ::ffff:10.1.2.3. end fe80::2:",
                            ids),
              "nh 2001:db8::1%ens1f0np0 gw 2001:db8::2, [2001:db8::3]:4791 ::1 "
              "v4 2001:db8::4. end 2001:db8::5:");
    // Times, PCI addresses and C++ names stay.
    const std::string alone = "at 12:34:56 dev 0000:3b:00.0: mlx5_core::init 28.41.1000";
    EXPECT_EQ(scrubFreeText(alone, ids), alone);
}

TEST(CaptureScrub, BootIdsAndJournalCursors)
{
    IdentifierMap ids;
    EXPECT_EQ(ids.bootId("5b1f2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"),
              "00000000-0000-4000-8000-000000000001");
    EXPECT_EQ(ids.bootId("5b1f2c3d4e5f4a6b8c7d9e0f1a2b3c4d"), "00000000000040008000000000000001");
    const std::string cursor = R"("cursor": "s=0123456789abcdef0123456789abcdef;i=2a;)"
                               R"(b=99999999999999999999999999999999;m=1f;t=5f;x=deadbeef")";
    EXPECT_EQ(scrubFreeText(cursor, ids), R"("cursor": "s=00000000000000000000000000000001;i=2a;)"
                                          R"(b=00000000000040008000000000000002;m=1f;t=5f;x=0")");
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

TEST(CaptureScrub, AModuleImageOfAnUnknownLayoutIsNotKept)
{
    std::vector<uint8_t> unknown(256, 0x41);
    unknown[0] = 0x7f; // no layout nicd knows: its serial could be anywhere
    EXPECT_FALSE(moduleImageScrubbable(unknown));
    EXPECT_TRUE(moduleImageScrubbable(std::vector<uint8_t>(256, 0xff))) << "no module: no data";
    auto qsfp = nicd::test::readCapture("sff8636_finisar_qsfp28_arista.hex", 640);
    EXPECT_TRUE(moduleImageScrubbable(qsfp));
    qsfp.resize(200);
    EXPECT_FALSE(moduleImageScrubbable(qsfp)) << "too short for its serial's checksum";
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
