// The capture's scrubbers: identifiers are replaced by fakes of the same shape, the same fake for
// the same original wherever it stands, and what nicd needs from the text (the default route, PCI
// addresses, versions, a module's diagnostics) comes through unchanged.
#include "capture/capture_scrub.hpp"
#include "capture/identifier_map.hpp"
#include "capture/module_scrub.hpp"
#include "capture/scrub_text.hpp"
#include "prefailure/module_eeprom.hpp"
#include "provision/default_route.hpp"
#include "support/module_images.hpp"

#include <set>

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

TEST(CaptureScrub, NamesMadeOfAnIdentifierAreRenamedAroundItsFake)
{
    IdentifierMap ids;
    const auto mac = ids.hwAddress("b8:3f:d2:5a:00:02");
    const auto guid = ids.guid("b83f:d203:005a:1a00");
    // systemd's enx<MAC> and rdma-core's NAME_GUID (<prefix>x<node GUID>): the name and the
    // address still agree.
    EXPECT_EQ(ids.name("enxb83fd25a0002"), "enx" + std::string("020000000001"));
    EXPECT_EQ(mac, "02:00:00:00:00:01");
    EXPECT_EQ(ids.name("rocexb83fd203005a1a00"), "rocex0200000000000001");
    EXPECT_EQ(guid, "0200:0000:0000:0001");
    EXPECT_EQ(ids.name("ibxB83FD203005A1A00"), "ibx0200000000000001") << "any case";
    EXPECT_EQ(ids.name("enxb83fd25a0099"), "enx020000000002") << "a MAC met first in its name";
    for (const char* kept : {"mlx5_0", "ens1f0np0", "enx12", "rocep59s0f0", "mlx5_bond_0"})
        EXPECT_EQ(ids.name(kept), kept);
    EXPECT_EQ(replaceKnownForms("up: enxb83fd25a0002 on rocexb83fd203005a1a00/1", ids.knownForms()),
              "up: enx020000000001 on rocex0200000000000001/1");
    EXPECT_EQ(IdentifierMap(true).name("enxb83fd25a0002"), "enxb83fd25a0002") << "kept";
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

TEST(CaptureScrub, AModulesOwnBytesGoAndWhatNicdDecodesStays)
{
    // Real modules' images: the serial, the lot code and the vendor's and user's areas are gone;
    // nothing else changes but checksums, and the image decodes to the very same diagnostics
    // (values, flags, thresholds), so nicd's verdicts on the replay are the node's.
    struct Case {
        const char* name;
        size_t size;
        std::vector<std::pair<size_t, size_t>> own; // [from, to): the unit's or vendor's bytes
    };
    size_t vendor_bytes = 0; // non-zero bytes the cleared areas held, over all images
    for (const auto& c : {Case{"cmis_osfp_800g_dr8_juniper.hex",
                               768,
                               {{166, 182}, {188, 190}, {118, 126}, {223, 256}}},
                          Case{"sff8636_finisar_qsfp28_arista.hex",
                               640,
                               {{196, 212}, {218, 220}, {119, 127}, {224, 256}, {384, 512}}},
                          Case{"sff8472_intel_e10gsfpsrx_ice.hex",
                               512,
                               {{68, 84}, {90, 92}, {96, 256}, {376, 383}, {384, 512}}}}) {
        SCOPED_TRACE(c.name);
        auto blob = nicd::test::readCapture(c.name, c.size);
        auto serial = moduleSerial(blob);
        ASSERT_FALSE(serial.empty());
        IdentifierMap ids;
        auto out = scrubModuleImage(blob, ids);
        EXPECT_EQ(moduleSerial(out), "SN00000000000001");
        std::string bytes(out.begin(), out.end());
        EXPECT_EQ(bytes.find(serial), std::string::npos);
        EXPECT_EQ(nicd::prefailure::decodeModuleEeprom(out),
                  nicd::prefailure::decodeModuleEeprom(blob));
        auto own = [&](size_t i) {
            return std::any_of(c.own.begin(), c.own.end(),
                               [i](const auto& r) { return i >= r.first && i < r.second; });
        };
        for (size_t i = 0; i < blob.size(); ++i) {
            const bool checksum = i == 63 || i == 95 || i == 191 || i == 222 || i == 223;
            if (!own(i) && !checksum) {
                EXPECT_EQ(out[i], blob[i]) << "byte " << i << " is not the module's own";
            }
        }
        for (size_t r = 2; r < c.own.size(); ++r) // the cleared areas (after serial and lot)
            for (size_t i = c.own[r].first; i < c.own[r].second; ++i) {
                EXPECT_EQ(out[i], 0) << "byte " << i;
                vendor_bytes += blob[i] != 0 ? 1 : 0;
            }
        EXPECT_EQ(bytes.substr(c.own[1].first, 2), "  ") << "the lot code";
    }
    EXPECT_GT(vendor_bytes, 0U) << "the images had vendor bytes to clear";
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
    auto out = scrubModuleImage(blob, ids);
    EXPECT_EQ(sum(out), out[95]);
    EXPECT_NE(out, blob);
}

TEST(CaptureScrub, IdentifyingNamesAreRenamedInPathsLinksAndContents)
{
    // A netdev named after its MAC on an RDMA device named after its GUID, as the capture holds
    // them: their directories, the class links to them, and what names them in a file.
    const std::string dev = "rocexb83fd203005a1a00";
    const std::string nd = "enxb83fd25a0002";
    const std::string fn = "sys/devices/pci0000:1a/0000:1a:00.0";
    CaptureTree tree;
    tree.file(fn + "/infiniband/" + dev + "/node_guid", "b83f:d203:005a:1a00\n", Scrub::Guid);
    tree.file(fn + "/infiniband/" + dev + "/ports/1/gid_attrs/ndevs/0", nd + "\n");
    tree.file(fn + "/net/" + nd + "/address", "b8:3f:d2:5a:00:02\n", Scrub::HwAddress);
    tree.symlink("sys/class/infiniband/" + dev,
                 "../../devices/pci0000:1a/0000:1a:00.0/infiniband/" + dev);
    tree.symlink("sys/class/net/" + nd, "../../devices/pci0000:1a/0000:1a:00.0/net/" + nd);
    tree.file("run/nicd-sim/ethtool/" + nd, "NIC statistics:\n     rx_packets: 1\n");
    std::vector<KernelEntry> lines;
    IdentifierMap ids;
    Manifest manifest;
    scrubCapture(tree, lines, HostNames{}, ids, manifest);

    const std::string fake_dev = "rocex0200000000000001";
    const std::string fake_nd = "enx020000000001";
    std::set<std::string> paths;
    for (const auto& [rel, e] : tree.entries()) {
        paths.insert(rel);
        EXPECT_EQ(rel.find("b83f"), std::string::npos) << rel;
        EXPECT_EQ(e.data.find("b83f"), std::string::npos) << rel << ": " << e.data;
    }
    EXPECT_TRUE(paths.contains(fn + "/net/" + fake_nd + "/address"));
    EXPECT_TRUE(paths.contains("run/nicd-sim/ethtool/" + fake_nd));
    EXPECT_EQ(tree.find("sys/class/infiniband/" + fake_dev)->data,
              "../../devices/pci0000:1a/0000:1a:00.0/infiniband/" + fake_dev);
    EXPECT_EQ(tree.find(fn + "/infiniband/" + fake_dev + "/ports/1/gid_attrs/ndevs/0")->data,
              fake_nd + "\n");
    EXPECT_EQ(tree.find(fn + "/infiniband/" + fake_dev + "/node_guid")->data,
              "0200:0000:0000:0001\n");
}

// bnxt_re prints its firmware version as four numbers ("%d.%d.%d.%d"), which reads as an IPv4
// address: it stays in the device's fw_ver and in nicd's textfile (fw_version=), where a real
// address beside it is still replaced.
TEST(CaptureScrub, AFirmwareVersionThatLooksLikeAnAddressStays)
{
    const std::string ib = "sys/devices/pci0000:5c/0000:5c:01.0/0000:5d:00.0/infiniband/bnxt_re0";
    CaptureTree tree;
    tree.file(ib + "/fw_ver", "230.0.157.0\n");
    tree.file("run/nicd-sim/capture/said/nicd.prom",
              "nicd_device_info{device=\"bnxt_re0\",fw_version=\"230.0.157.0\"} 1\n"
              "nicd_peer{address=\"10.1.2.3\"} 1\n",
              Scrub::FreeText);
    std::vector<KernelEntry> lines{{1, "bnxt_en 0000:5d:00.0: fw 230.0.157.0 at 10.1.2.3", "", ""}};
    IdentifierMap ids;
    Manifest manifest;
    scrubCapture(tree, lines, HostNames{}, ids, manifest);
    EXPECT_EQ(tree.find(ib + "/fw_ver")->data, "230.0.157.0\n");
    EXPECT_EQ(tree.find("run/nicd-sim/capture/said/nicd.prom")->data,
              "nicd_device_info{device=\"bnxt_re0\",fw_version=\"230.0.157.0\"} 1\n"
              "nicd_peer{address=\"198.18.0.1\"} 1\n");
    EXPECT_EQ(lines[0].message, "bnxt_en 0000:5d:00.0: fw 230.0.157.0 at 198.18.0.1");
}

// Only an RDMA device's fw_ver of four numbers is exempt: an address a tree puts in another
// file of that name (or beside other text) is still replaced everywhere.
TEST(CaptureScrub, AnAddressInAnotherFwVerFileIsStillReplaced)
{
    CaptureTree tree;
    tree.file("sys/devices/pci0000:5c/0000:5c:01.0/fw_ver", "10.1.2.3\n");
    tree.file("sys/devices/pci0000:5c/0000:5c:01.0/0000:5d:00.0/infiniband/bnxt_re0/fw_ver",
              "10.4.5.6 beta\n");
    tree.file("run/nicd-sim/capture/said/nicd.prom",
              "nicd_peer{address=\"10.1.2.3\"} 1\nnicd_peer{address=\"10.4.5.6\"} 1\n",
              Scrub::FreeText);
    std::vector<KernelEntry> lines;
    IdentifierMap ids;
    Manifest manifest;
    scrubCapture(tree, lines, HostNames{}, ids, manifest);
    const auto& said = tree.find("run/nicd-sim/capture/said/nicd.prom")->data;
    EXPECT_EQ(said.find("10.1.2.3"), std::string::npos) << said;
    EXPECT_EQ(said.find("10.4.5.6"), std::string::npos) << said;
}
