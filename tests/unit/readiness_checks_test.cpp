// The readiness checks of compute ports (health/readiness_checks.hpp) and their conditions
// (health/readiness_rules.hpp) over hand-built snapshots: a healthy GPU node is ready; each
// failed input raises exactly its ready.* code on its port and recovers when it is fixed; an
// input nicd cannot read says "unknown" and raises nothing.
#include "readiness/gid_text.hpp"
#include "readiness/gpu_pairing.hpp"
#include "support/health_fixture.hpp"

#include <algorithm>
#include <functional>

#include <gtest/gtest.h>

using namespace nicd;
using namespace nicd::test;

namespace {

constexpr const char* kSys = "/r/sys/devices/pci0000:18/0000:18:01.0/";

Gid gid(const char* text)
{
    return readiness::parseGid(text).value_or(Gid{});
}

// A compute RoCE PF mlx5_<i> on bus 0x1<i> beside its GPU, with everything NCCL needs.
Device computeNic(int i, int numa = 0)
{
    Device d = device("mlx5_" + std::to_string(i), 4);
    d.role = Role::Compute;
    d.pci_address = "0000:1" + std::to_string(i) + ":00.0";
    d.pci_path = std::string(kSys) + d.pci_address;
    d.numa_node = numa;
    d.ports[0].netdevs = {"ens" + std::to_string(i)};
    return d;
}

GpuFunction gpu(int i, int numa = 0)
{
    std::string bdf = "0000:1" + std::to_string(i) + ":01.0";
    return {bdf, std::string(kSys) + bdf, numa};
}

PortReadinessInputs readyPort(const std::string& netdev, uint32_t mtu = 9000)
{
    PortReadinessInputs p;
    p.gids_listed = true;
    p.gids = {{0, gid("fe80:0000:0000:0000:b83f:d2ff:fe5a:0001"), "IB/RoCE v1", netdev},
              {1, gid("fe80:0000:0000:0000:b83f:d2ff:fe5a:0001"), "RoCE v2", netdev},
              {3, gid("0000:0000:0000:0000:0000:ffff:0a00:0005"), "RoCE v2", netdev}};
    p.lid = 0;
    p.mtu_netdev = netdev;
    p.mtu = mtu;
    return p;
}

AcsInputs acs(uint16_t control)
{
    return {AcsInputs::Read::Ok, true, control, ""};
}

class ReadinessTest : public HealthTest {
protected:
    // Evaluates at t seconds after the boot grace (boot_grace.hpp); the grace has tests below.
    Snapshot at(double t, Snapshot s) { return HealthTest::at(kAfterBoot + t, std::move(s)); }
    static constexpr double kAfterBoot = 1000;

    // Two compute NICs and their GPUs, all ready.
    Snapshot node()
    {
        Snapshot s = snap({computeNic(0), computeNic(1)});
        s.inventory.gpus = {gpu(0), gpu(1)};
        auto& in = s.readiness;
        in.read = true;
        for (int i = 0; i < 2; ++i) {
            const auto& d = s.inventory.devices[i];
            in.ports[{d.ibdev, 1}] = readyPort(d.ports[0].netdevs[0]);
            in.verbs[d.ibdev] = {true, "uverbs" + std::to_string(i), true};
            in.pairings[d.ibdev] = readiness::pairGpus(d, s.inventory.gpus);
        }
        in.bridges["0000:18:01.0"] = acs(0x0011);
        in.gpudirect = GpuDirectInputs{"/sys/module/nvidia_peermem/version",
                                       true,
                                       false,
                                       "535.183.01",
                                       535,
                                       "6.8.0-45-generic",
                                       std::pair{6U, 8U}};
        return s;
    }

    // The ready.* codes active on the node, as "code@device".
    static std::vector<std::string> readyCodes(const Snapshot& s) { return codesAt(s, "ready."); }

    static const ReadyCheck& check(const Snapshot& s, const std::string& dev, const char* name)
    {
        for (const auto& c : s.health.readiness.at({dev, 1}))
            if (c.check == name)
                return c;
        throw std::runtime_error(std::string("no check ") + name);
    }
};

using Verdict = ReadyCheck::Verdict;
using Codes = std::vector<std::string>;

} // namespace

TEST_F(ReadinessTest, AHealthyGpuNodeIsReady)
{
    auto s = at(0, node());
    EXPECT_EQ(readyCodes(s), Codes{});
    EXPECT_EQ(portReady(s.health, "mlx5_0", 1), true);
    EXPECT_EQ(check(s, "mlx5_0", "gid").saw, "gid 3: RoCE v2 ::ffff:10.0.0.5 on ens0");
    EXPECT_EQ(check(s, "mlx5_0", "mtu").saw, "MTU 9000 on ens0 (RoCE MTU 4096)");
    EXPECT_EQ(check(s, "mlx5_1", "acs").verdict, Verdict::Ok);
    EXPECT_EQ(check(s, "mlx5_1", "numa").verdict, Verdict::Ok);
    EXPECT_EQ(check(s, "mlx5_1", "gpudirect").verdict, Verdict::Ok);
}

TEST_F(ReadinessTest, EachFaultRaisesItsCodeOnItsPortAndRecovers)
{
    struct Case {
        const char* code;
        const char* device;
        std::function<void(Snapshot&)> breakIt;
    };
    const std::vector<Case> cases = {
        {"ready.no_roce_gid", "mlx5_1",
         [](Snapshot& s) {
             s.readiness.ports[{"mlx5_1", 1}].gids.pop_back();
         }},
        {"ready.mtu_mismatch", "mlx5_1",
         [](Snapshot& s) {
             s.readiness.ports[{"mlx5_1", 1}].mtu = 4500; // a tie: the smaller is the odd one
         }},
        {"ready.no_uverbs", "mlx5_0", [](Snapshot& s) { s.readiness.verbs["mlx5_0"].name = ""; }},
        {"ready.no_uverbs", "mlx5_1",
         [](Snapshot& s) { s.readiness.verbs["mlx5_1"].dev_node = false; }},
        {"ready.acs_redirect", "mlx5_0",
         [](Snapshot& s) { s.readiness.bridges["0000:18:01.0"] = acs(0x001d); }},
    };
    double t = 0;
    for (const auto& c : cases) {
        auto broken = node();
        c.breakIt(broken);
        if (std::string(c.code) == "ready.acs_redirect") { // the shared bridge: both ports
            EXPECT_EQ(readyCodes(at(++t, broken)),
                      (Codes{"ready.acs_redirect@mlx5_0", "ready.acs_redirect@mlx5_1"}));
        } else {
            auto s = at(++t, broken);
            EXPECT_EQ(readyCodes(s), Codes{std::string(c.code) + "@" + c.device});
            EXPECT_EQ(portReady(s.health, c.device, 1), false);
        }
        EXPECT_EQ(readyCodes(at(++t, node())), Codes{}) << c.code << " did not recover";
    }
}

TEST_F(ReadinessTest, MtuBelowTheMinimumEvenWhenAllAgree)
{
    auto s = node();
    for (auto& [key, p] : s.readiness.ports)
        p.mtu = 1500;
    EXPECT_EQ(readyCodes(at(0, s)),
              (Codes{"ready.mtu_mismatch@mlx5_0", "ready.mtu_mismatch@mlx5_1"}));
    config_.health.min_mtu = 0; // MinMtu=0: only a mismatch counts
    engine_.configure(config_);
    EXPECT_EQ(readyCodes(at(1, s)), Codes{});
}

TEST_F(ReadinessTest, GpuDirectNeedsPeermemOrTheDmaBufPath)
{
    auto s = node();
    auto& g = *s.readiness.gpudirect;
    g.peermem.clear(); // proprietary 535: no dma-buf
    auto failed = at(0, s);
    EXPECT_EQ(readyCodes(failed),
              (Codes{"ready.no_gpudirect@mlx5_0", "ready.no_gpudirect@mlx5_1"}));
    g.open_module = true; // the open module 535 on Linux 6.8: dma-buf
    EXPECT_EQ(readyCodes(at(1, s)), Codes{});
    g.kernel = std::pair{5U, 4U};
    EXPECT_EQ(readyCodes(at(2, s)).size(), 2U);
}

TEST_F(ReadinessTest, NumaFarOnlyWhenNoPairedGpuSharesTheNode)
{
    auto s = node();
    s.inventory.devices[1].numa_node = 1;
    auto far = at(0, s);
    EXPECT_EQ(readyCodes(far), Codes{"ready.numa_far@mlx5_1"});
    EXPECT_EQ(check(far, "mlx5_1", "numa").verdict, Verdict::Failed);
}

TEST_F(ReadinessTest, ANicMeetingItsGpusOnlyAtTheRootComplexIsANoteNotACondition)
{
    auto below_switch = at(0, node());
    EXPECT_EQ(check(below_switch, "mlx5_0", "gpu_path").verdict, Verdict::Ok);
    EXPECT_EQ(check(below_switch, "mlx5_0", "gpu_path").saw,
              "below PCIe bridge 0000:18:01.0 with GPU 0000:10:01.0");
    // mlx5_1 moves to a root port of its own on the same socket: no bridge shared with a GPU.
    auto s = node();
    auto& nic = s.inventory.devices[1];
    nic.pci_path = "/r/sys/devices/pci0000:30/0000:30:01.0/" + nic.pci_address;
    s.readiness.pairings[nic.ibdev] = readiness::pairGpus(nic, s.inventory.gpus);
    auto apart = at(1, s);
    const auto& note = check(apart, "mlx5_1", "gpu_path");
    EXPECT_EQ(note.verdict, Verdict::Ok) << "the board's wiring, not a fault";
    EXPECT_TRUE(note.saw.starts_with("note: ")) << note.saw;
    EXPECT_NE(note.saw.find("crosses the CPU"), std::string::npos) << note.saw;
    EXPECT_TRUE(apart.health.conditions.empty());
    EXPECT_EQ(portReady(apart.health, "mlx5_1", 1), true);
    // Where the NIC's NUMA node is unknown (a VM), its PCI tree is not the board's: unknown.
    nic.numa_node.reset();
    s.readiness.pairings[nic.ibdev] = readiness::pairGpus(nic, s.inventory.gpus);
    EXPECT_EQ(check(at(2, s), "mlx5_1", "gpu_path").verdict, Verdict::Unknown);
}

TEST_F(ReadinessTest, WhatCannotBeReadIsUnknownAndRaisesNothing)
{
    auto s = node();
    s.readiness.bridges["0000:18:01.0"] = {AcsInputs::Read::Short, false, 0, ""};
    s.readiness.verbs.erase("mlx5_0");
    s.readiness.ports[{"mlx5_1", 1}].gids_listed = false;
    auto u = at(0, s);
    EXPECT_EQ(readyCodes(u), Codes{});
    EXPECT_EQ(check(u, "mlx5_0", "acs").verdict, Verdict::Unknown);
    EXPECT_NE(check(u, "mlx5_0", "acs").saw.find("CAP_SYS_ADMIN"), std::string::npos);
    EXPECT_EQ(check(u, "mlx5_0", "uverbs").verdict, Verdict::Unknown);
    EXPECT_EQ(check(u, "mlx5_1", "gid").verdict, Verdict::Unknown);
    // An unknown check keeps what was said before: a redirect seen stays until seen cleared.
    auto on = node();
    on.readiness.bridges["0000:18:01.0"] = acs(0x000c);
    EXPECT_EQ(readyCodes(at(1, on)).size(), 2U);
    EXPECT_EQ(readyCodes(at(2, s)).size(), 2U);
    EXPECT_EQ(readyCodes(at(3, node())), Codes{});
}

TEST_F(ReadinessTest, ANodeWithoutGpusJudgesOnlyTheNicsOwnChecks)
{
    auto s = node();
    s.inventory.gpus.clear();
    for (auto& [dev, pairs] : s.readiness.pairings)
        pairs.clear(); // what the source reads on such a node
    s.readiness.gpudirect.reset();
    s.readiness.bridges.clear();
    auto q = at(0, s);
    EXPECT_EQ(readyCodes(q), Codes{});
    EXPECT_EQ(check(q, "mlx5_0", "gpudirect").verdict, Verdict::Skipped);
    EXPECT_EQ(check(q, "mlx5_0", "acs").verdict, Verdict::Skipped);
    EXPECT_EQ(check(q, "mlx5_0", "numa").verdict, Verdict::Skipped);
}

TEST_F(ReadinessTest, StorageNicsVfsAndDownPortsAreNotJudged)
{
    auto s = node();
    s.inventory.devices[0].role = Role::Storage;
    s.inventory.devices[1].ports[0].state = 1;
    s.readiness.verbs["mlx5_0"].name = "";
    auto q = at(0, s);
    EXPECT_EQ(readyCodes(q), Codes{});
    EXPECT_FALSE(portReady(q.health, "mlx5_0", 1));
    EXPECT_FALSE(portReady(q.health, "mlx5_1", 1));
}

TEST_F(ReadinessTest, InfiniBandNeedsAPortGidALidAndA4096Mtu)
{
    auto s = node();
    auto& d = s.inventory.devices[0];
    d.ports[0].link_layer = "InfiniBand";
    auto& p = s.readiness.ports[{"mlx5_0", 1}];
    p.gids = {{0, gid("fe80:0000:0000:0000:b83f:d203:005a:1a01"), "", ""}};
    p.lid = 0x11;
    p.ib_active_mtu = 4096;
    auto ok = at(0, s);
    EXPECT_EQ(readyCodes(ok), Codes{});
    EXPECT_EQ(check(ok, "mlx5_0", "gid").saw, "port GID fe80::b83f:d203:5a:1a01, LID 0x11");
    p.lid = 0;
    p.ib_active_mtu = 2048;
    EXPECT_EQ(readyCodes(at(1, s)),
              (Codes{"ready.mtu_mismatch@mlx5_0", "ready.no_roce_gid@mlx5_0"}));
    p.ib_active_mtu.reset(); // not in sysfs: unknown, and the earlier verdict stands
    auto u = at(2, s);
    EXPECT_EQ(check(u, "mlx5_0", "mtu").verdict, Verdict::Unknown);
}

TEST_F(ReadinessTest, AFailedGidCheckListsTheGidsWithoutTheirMacDerivedAddresses)
{
    auto s = node();
    s.readiness.ports[{"mlx5_1", 1}].gids.pop_back();
    auto q = at(0, s);
    EXPECT_EQ(check(q, "mlx5_1", "gid").saw,
              "no RoCE v2 GID with an IP address (gid 0: IB/RoCE v1 link-local on ens1; gid 1: "
              "RoCE v2 link-local on ens1)");
}

// In the first minutes after boot a failed check raises nothing yet (an address from DHCP after
// link-up, a uverbs node udev has not made); once past them the same failure raises its code.
TEST_F(ReadinessTest, FailuresRaiseNothingInTheFirstMinutesAfterBoot)
{
    auto s = node();
    s.readiness.ports[{"mlx5_1", 1}].gids.pop_back();
    EXPECT_EQ(readyCodes(HealthTest::at(30, s)), Codes{});
    EXPECT_EQ(check(HealthTest::at(31, s), "mlx5_1", "gid").verdict, Verdict::Failed);
    EXPECT_EQ(readyCodes(at(0, s)), Codes{"ready.no_roce_gid@mlx5_1"});
}

// A port that stops being active (disabled, uncabled) keeps no ready.* condition: port_down and
// the link rules say what it is now.
TEST_F(ReadinessTest, APortThatIsNoLongerActiveKeepsNoReadyCondition)
{
    auto s = node();
    s.readiness.ports[{"mlx5_1", 1}].gids.pop_back();
    ASSERT_EQ(readyCodes(at(0, s)), Codes{"ready.no_roce_gid@mlx5_1"});
    s.inventory.devices[1].ports[0].state = 1; // DOWN
    EXPECT_EQ(readyCodes(at(1, s)), Codes{});
}
