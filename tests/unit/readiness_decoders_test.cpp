// The readiness checks' pure decoders over hand-built input: GIDs as sysfs prints them, the RoCE
// MTU a netdev MTU allows (the kernel's iboe_get_mtu), the ACS capability walk over config bytes,
// the NVIDIA driver's version line and the kernel release, and which GPUs a NIC is paired with.
#include "health/readiness_checks.hpp"
#include "readiness/acs_config.hpp"
#include "readiness/gid_text.hpp"
#include "readiness/gpu_pairing.hpp"
#include "readiness/gpudirect_evidence.hpp"

#include <vector>

#include <gtest/gtest.h>

using namespace nicd;
using namespace nicd::readiness;

namespace {

Gid gidOf(const char* text)
{
    auto g = parseGid(text);
    EXPECT_TRUE(g) << text;
    return g.value_or(Gid{});
}

// 4096 bytes of config space: a 64-byte header, then the extended capabilities in `chain`
// ((id, offset) in order, each linked to the next), the ACS one with `control`.
std::vector<uint8_t> configWith(const std::vector<std::pair<uint16_t, size_t>>& chain,
                                uint16_t control, size_t size = kConfigSpaceSize)
{
    std::vector<uint8_t> b(kConfigSpaceSize, 0);
    for (size_t i = 0; i < chain.size(); ++i) {
        auto [id, at] = chain[i];
        uint32_t next = i + 1 < chain.size() ? chain[i + 1].second : 0;
        uint32_t header = id | 1U << 16 | next << 20;
        for (int k = 0; k < 4; ++k)
            b[at + k] = static_cast<uint8_t>(header >> (8 * k));
        if (id == kAcsCapabilityId) {
            b[at + 4] = 0x7f; // capabilities: every one
            b[at + 6] = static_cast<uint8_t>(control);
            b[at + 7] = static_cast<uint8_t>(control >> 8);
        }
    }
    b.resize(size);
    return b;
}

} // namespace

TEST(ReadinessGid, ParsesTheKernelsFormAndTellsAddressKinds)
{
    auto v4 = gidOf("0000:0000:0000:0000:0000:ffff:0a00:0005\n");
    EXPECT_EQ(gidKind(v4), GidKind::Ipv4Mapped);
    EXPECT_EQ(gidAddress(v4), "::ffff:10.0.0.5");
    EXPECT_TRUE(carriesIpAddress(v4));
    auto ll = gidOf("fe80:0000:0000:0000:b83f:d2ff:fe5a:0002");
    EXPECT_EQ(gidKind(ll), GidKind::LinkLocal);
    EXPECT_FALSE(carriesIpAddress(ll));
    EXPECT_EQ(gidAddress(ll), "fe80::b83f:d2ff:fe5a:2");
    EXPECT_EQ(sysfsGidText(ll), "fe80:0000:0000:0000:b83f:d2ff:fe5a:0002");
    auto v6 = gidOf("fd00:0000:0000:0001:0000:0000:0000:0005");
    EXPECT_EQ(gidKind(v6), GidKind::Ipv6);
    EXPECT_TRUE(carriesIpAddress(v6));
    EXPECT_EQ(gidKind(gidOf("0000:0000:0000:0000:0000:0000:0000:0000")), GidKind::Zero);
}

TEST(ReadinessGid, RejectsWhatIsNotEightGroups)
{
    for (const char* bad :
         {"", "fe80::1", "fe80:0:0:0:0:0:0", "fe80:0:0:0:0:0:0:0:0", "fe80:0:0:0:0:0:0:12345",
          "fe80:0:0:0:0:0:0:zz", "::ffff:10.0.0.5", "fe80:0:0:0:0:0:0:1 x"})
        EXPECT_FALSE(parseGid(bad)) << bad;
}

// include/rdma/ib_addr.h iboe_get_mtu: the netdev MTU less 96 bytes of headers, rounded down to
// an IB MTU.
TEST(ReadinessMtu, RoceMtuIsWhatFitsAfterTheHeaders)
{
    using health::roceMtuOf;
    EXPECT_EQ(health::kMinMtuFor4096, 4192U);
    EXPECT_EQ(roceMtuOf(9000), 4096U);
    EXPECT_EQ(roceMtuOf(4192), 4096U);
    EXPECT_EQ(roceMtuOf(4191), 2048U);
    EXPECT_EQ(roceMtuOf(4200), 4096U);
    EXPECT_EQ(roceMtuOf(1500), 1024U);
    EXPECT_EQ(roceMtuOf(352), 256U);
    EXPECT_EQ(roceMtuOf(351), 0U);
    EXPECT_EQ(roceMtuOf(0), 0U);
}

TEST(ReadinessMtu, ReferenceIsTheMostCommonTheLargerOnATie)
{
    using health::referenceMtu;
    EXPECT_FALSE(referenceMtu({}));
    EXPECT_EQ(referenceMtu({9000, 9000, 1500}), 9000U);
    EXPECT_EQ(referenceMtu({1500, 1500, 9000}), 1500U);
    EXPECT_EQ(referenceMtu({1500, 9000}), 9000U);
}

TEST(ReadinessAcs, FindsTheCapabilityAlongTheChain)
{
    // AER at 0x100, then ACS at 0x148 with Request and Completion Redirect set.
    auto on = decodeAcs(configWith({{0x0001, 0x100}, {kAcsCapabilityId, 0x148}}, 0x001d));
    EXPECT_EQ(on.read, AcsInputs::Read::Ok);
    EXPECT_TRUE(on.capability);
    EXPECT_EQ(on.control, 0x001d);
    EXPECT_TRUE(redirectsPeerTraffic(on));
    // Source Validation and Upstream Forwarding only: no redirect.
    auto off = decodeAcs(configWith({{0x0001, 0x100}, {kAcsCapabilityId, 0x148}}, 0x0011));
    EXPECT_TRUE(off.capability);
    EXPECT_FALSE(redirectsPeerTraffic(off));
    // Completion Redirect alone is enough.
    EXPECT_TRUE(redirectsPeerTraffic(decodeAcs(configWith({{kAcsCapabilityId, 0x100}}, 0x0008))));
}

TEST(ReadinessAcs, ABridgeWithoutTheCapabilityHasNoRedirect)
{
    auto none = decodeAcs(configWith({{0x0001, 0x100}, {0x000b, 0x200}}, 0));
    EXPECT_EQ(none.read, AcsInputs::Read::Ok);
    EXPECT_FALSE(none.capability);
    EXPECT_FALSE(redirectsPeerTraffic(none));
    // A conventional function's 256 bytes: no extended space at all.
    EXPECT_FALSE(decodeAcs(configWith({}, 0, 256)).capability);
}

TEST(ReadinessAcs, SixtyFourBytesCannotTell)
{
    // What config_read gives a reader without CAP_SYS_ADMIN: never "no redirect".
    auto shortRead = decodeAcs(configWith({{kAcsCapabilityId, 0x100}}, 0x000c, 64));
    EXPECT_EQ(shortRead.read, AcsInputs::Read::Short);
    EXPECT_FALSE(redirectsPeerTraffic(shortRead));
}

TEST(ReadinessAcs, HostileChainsEnd)
{
    // A capability pointing at itself, one pointing below 0x100, one cut off by the file's end.
    EXPECT_FALSE(decodeAcs(configWith({{0x0001, 0x100}, {0x0002, 0x100}}, 0)).capability);
    auto loop = configWith({{0x0001, 0x100}}, 0);
    loop[0x102] = 0x01;
    loop[0x103] = 0x10; // next 0x100: itself
    EXPECT_FALSE(decodeAcs(loop).capability);
    auto cut = configWith({{kAcsCapabilityId, 0x100}}, 0x000c, 0x104);
    EXPECT_FALSE(decodeAcs(cut).capability);
    std::vector<uint8_t> ones(kConfigSpaceSize, 0xff);
    EXPECT_FALSE(decodeAcs(ones).capability);
}

TEST(ReadinessGpuDirect, ReadsTheDriversVersionLine)
{
    auto open = parseNvidiaVersion("NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  "
                                   "550.54.15  Release Build  (dvs-builder@U16)  Thu Feb 22\n"
                                   "GCC version:  gcc version 12.2.0\n");
    ASSERT_TRUE(open);
    EXPECT_TRUE(open->open);
    EXPECT_EQ(open->version, "550.54.15");
    EXPECT_EQ(open->branch, 550U);
    auto closed = parseNvidiaVersion(
        "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.183.01  Sun May 12 19:39:15 UTC 2024");
    ASSERT_TRUE(closed);
    EXPECT_FALSE(closed->open);
    EXPECT_EQ(closed->branch, 535U);
    EXPECT_FALSE(parseNvidiaVersion("something else"));
    EXPECT_EQ(parseKernelRelease("6.8.0-45-generic\n"), (std::pair{6U, 8U}));
    EXPECT_EQ(parseKernelRelease("5.4.0"), (std::pair{5U, 4U}));
    EXPECT_FALSE(parseKernelRelease("six.eight"));
    EXPECT_FALSE(parseKernelRelease("6"));
}

TEST(ReadinessPairing, BridgesBetweenAreFromTheSharedOneDown)
{
    auto between = bridgesBetween("/r/sys/devices/pci0000:18/0000:18:01.0/0000:19:00.0/"
                                  "0000:1a:00.0/0000:1b:00.0",
                                  "/r/sys/devices/pci0000:18/0000:18:01.0/0000:19:00.0/"
                                  "0000:1a:04.0/0000:1c:00.0");
    std::vector<std::string> names;
    for (const auto& b : between)
        names.push_back(b.address);
    EXPECT_EQ(names, (std::vector<std::string>{"0000:19:00.0", "0000:1a:00.0", "0000:1a:04.0"}));
    EXPECT_EQ(between[0].dir, "/r/sys/devices/pci0000:18/0000:18:01.0/0000:19:00.0");
    // Under different host bridges: nothing shared, nothing between.
    EXPECT_TRUE(bridgesBetween("/sys/devices/pci0000:18/0000:18:01.0/0000:19:00.0",
                               "/sys/devices/pci0000:38/0000:38:01.0/0000:39:00.0")
                    .empty());
}

TEST(ReadinessPairing, SwitchFirstThenNumaThenEvery)
{
    Device nic;
    nic.pci_path = "/sys/devices/pci0000:18/0000:18:01.0/0000:19:00.0";
    nic.numa_node = 0;
    GpuFunction below{"0000:19:01.0", "/sys/devices/pci0000:18/0000:18:01.0/0000:19:01.0", 1};
    GpuFunction near{"0000:29:00.0", "/sys/devices/pci0000:28/0000:28:01.0/0000:29:00.0", 0};
    GpuFunction far{"0000:b9:00.0", "/sys/devices/pci0000:b8/0000:b8:01.0/0000:b9:00.0", 1};
    auto pairs = pairGpus(nic, {below, near, far});
    ASSERT_EQ(pairs.size(), 1U);
    EXPECT_EQ(pairs[0].gpu, "0000:19:01.0");
    EXPECT_TRUE(pairs[0].shares_switch);
    EXPECT_EQ(pairs[0].bridges, (std::vector<std::string>{"0000:18:01.0"}));
    pairs = pairGpus(nic, {near, far});
    ASSERT_EQ(pairs.size(), 1U);
    EXPECT_EQ(pairs[0].gpu, "0000:29:00.0");
    EXPECT_FALSE(pairs[0].shares_switch);
    EXPECT_EQ(pairGpus(nic, {far}).size(), 1U);
    EXPECT_TRUE(pairGpus(nic, {}).empty());
}
