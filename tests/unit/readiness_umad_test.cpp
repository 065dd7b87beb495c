// The umad check of compute InfiniBand ports (health/readiness_checks.hpp) and its condition,
// ready.no_umad (degraded, check_host_config), over hand-built snapshots: each port needs its
// umad device and node, and its issm device and node where the node's InfiniBand ports have issm
// nodes at all (a GB300 node makes none, by design: not a fault); a RoCE port is never asked.
#include "health/readiness_checks.hpp"
#include "readiness/gid_text.hpp"
#include "support/health_fixture.hpp"

#include <algorithm>

#include <gtest/gtest.h>

using namespace nicd;
using namespace nicd::test;

namespace {

using Verdict = ReadyCheck::Verdict;
using Codes = std::vector<std::string>;

// A compute InfiniBand PF mlx5_<i>, no GPU on the node.
Device ibNic(int i)
{
    Device d = device("mlx5_" + std::to_string(i), 4);
    d.role = Role::Compute;
    d.pci_address = "0000:9" + std::to_string(i) + ":00.0";
    d.ports[0].link_layer = "InfiniBand";
    return d;
}

// Its port with a GID and a LID, and its umad<i> and issm<i> with their nodes.
PortReadinessInputs ibPort(int i)
{
    PortReadinessInputs p;
    p.gids_listed = true;
    p.gids = {{0, readiness::parseGid("fe80:0000:0000:0000:b83f:d203:005a:1a00").value(), "", ""}};
    p.lid = 0x10 + i;
    p.mad =
        MadPortInputs{true, "umad" + std::to_string(i), true, "issm" + std::to_string(i), true, {}};
    return p;
}

class UmadTest : public HealthTest {
protected:
    Snapshot at(double t, Snapshot s) { return HealthTest::at(1000 + t, std::move(s)); }

    // Two compute InfiniBand NICs, everything in place.
    static Snapshot node()
    {
        Snapshot s;
        s.inventory.devices = {ibNic(0), ibNic(1)};
        auto& in = s.readiness;
        in.read = true;
        for (int i = 0; i < 2; ++i) {
            const auto name = "mlx5_" + std::to_string(i);
            in.ports[{name, 1}] = ibPort(i);
            in.verbs[name] = {true, "uverbs" + std::to_string(i), true};
            in.pairings[name] = {};
        }
        return s;
    }
    static MadPortInputs& mad(Snapshot& s, const std::string& dev)
    {
        return *s.readiness.ports[{dev, 1}].mad;
    }
    static std::vector<std::string> readyCodes(const Snapshot& s) { return codesAt(s, "ready."); }
    static const ReadyCheck& umad(const Snapshot& s, const std::string& dev)
    {
        for (const auto& c : s.health.readiness.at({dev, 1}))
            if (c.check == "umad")
                return c;
        throw std::runtime_error("no umad check");
    }
};

} // namespace

TEST_F(UmadTest, AHealthyInfiniBandNodeIsReady)
{
    auto s = at(0, node());
    EXPECT_EQ(readyCodes(s), Codes{});
    EXPECT_EQ(umad(s, "mlx5_1").verdict, Verdict::Ok);
    EXPECT_EQ(umad(s, "mlx5_1").saw, "umad1 (/dev/infiniband/umad1), issm1");
    EXPECT_EQ(readyCode("umad"), std::string("ready.no_umad"));
}

TEST_F(UmadTest, EachMissingPieceRaisesReadyNoUmadOnItsPortAndRecovers)
{
    struct Case {
        const char* what;
        void (*breakIt)(MadPortInputs&);
        const char* saw;
    };
    const Case cases[] = {
        {"ib_umad not loaded", [](MadPortInputs& m) { m = {}; },
         "no infiniband_mad under 0000:91:00.0 (is ib_umad loaded?)"},
        {"no umad entry",
         [](MadPortInputs& m) {
             m.umad.clear();
             m.umad_node = false;
         },
         "no umad device names mlx5_1 port 1 (is ib_umad loaded?)"},
        {"no umad node", [](MadPortInputs& m) { m.umad_node = false; },
         "umad1 in sysfs, but no /dev/infiniband/umad1 (udev did not make it)"},
        {"no issm entry where the other port has one",
         [](MadPortInputs& m) {
             m.issm.clear();
             m.issm_node = false;
         },
         "umad1 (/dev/infiniband/umad1), but no issm device names mlx5_1 port 1 while other "
         "InfiniBand ports of this node have theirs"},
        {"no issm node", [](MadPortInputs& m) { m.issm_node = false; },
         "umad1 (/dev/infiniband/umad1), but issm1 in sysfs has no /dev/infiniband/issm1 (udev "
         "did not make it)"},
    };
    double t = 0;
    for (const auto& c : cases) {
        auto broken = node();
        c.breakIt(mad(broken, "mlx5_1"));
        auto s = at(t++, broken);
        EXPECT_EQ(readyCodes(s), Codes{"ready.no_umad@mlx5_1"}) << c.what;
        const auto* cond = find(s, "ready.no_umad", "mlx5_1");
        ASSERT_NE(cond, nullptr) << c.what;
        EXPECT_EQ(cond->port, 1U);
        EXPECT_EQ(cond->severity, ConditionSeverity::Degraded) << "NCCL's verbs traffic runs on";
        EXPECT_EQ(cond->action, Action::CheckHostConfig);
        EXPECT_EQ(cond->message, c.saw) << c.what;
        EXPECT_EQ(readyCodes(at(t++, node())), Codes{}) << c.what << ": recovers";
    }
}

// GB300 nodes make no issm nodes at all (NVSentinel issue 1716): no port attribute tells such a
// platform, so the node's own ports do. Without issm anywhere, umad alone is asked.
TEST_F(UmadTest, ANodeWithoutAnyIssmIsNotAFault)
{
    auto s = node();
    for (const char* dev : {"mlx5_0", "mlx5_1"}) {
        mad(s, dev).issm.clear();
        mad(s, dev).issm_node = false;
    }
    auto judged = at(0, s);
    EXPECT_EQ(readyCodes(judged), Codes{});
    EXPECT_EQ(umad(judged, "mlx5_0").verdict, Verdict::Ok);
    EXPECT_EQ(umad(judged, "mlx5_0").saw,
              "umad0 (/dev/infiniband/umad0); no InfiniBand port of this node has an issm node, "
              "as on platforms that make none (GB300)");
    // issm entries in sysfs that udev was told not to make nodes for: the same shape.
    for (const char* dev : {"mlx5_0", "mlx5_1"})
        mad(s, dev).issm = dev == std::string("mlx5_0") ? "issm0" : "issm1";
    EXPECT_EQ(readyCodes(at(1, s)), Codes{});
    // umad is still asked.
    mad(s, "mlx5_0").umad_node = false;
    EXPECT_EQ(readyCodes(at(2, s)), Codes{"ready.no_umad@mlx5_0"});
}

// A multi-plane ConnectX-8 port (cap_mask IsSMDisabled) has no issm by design, on a node whose
// other InfiniBand ports have theirs: not a fault; a plain port without its issm still is.
TEST_F(UmadTest, AMultiPlanePortIsNotAskedForIssm)
{
    auto s = node();
    mad(s, "mlx5_0").issm.clear();
    mad(s, "mlx5_0").issm_node = false;
    mad(s, "mlx5_0").sm_disabled = true;
    auto judged = at(0, s);
    EXPECT_EQ(readyCodes(judged), Codes{});
    EXPECT_EQ(umad(judged, "mlx5_0").verdict, Verdict::Ok);
    EXPECT_EQ(umad(judged, "mlx5_0").saw,
              "umad0 (/dev/infiniband/umad0); no issm: the port's cap_mask has IsSMDisabled, a "
              "multi-plane port (XDR) whose planes' SMI device has them");
    mad(s, "mlx5_0").sm_disabled = false;
    EXPECT_EQ(readyCodes(at(1, s)), Codes{"ready.no_umad@mlx5_0"});
    // Its umad is still asked.
    mad(s, "mlx5_0").sm_disabled = true;
    mad(s, "mlx5_0").umad_node = false;
    EXPECT_EQ(readyCodes(at(2, s)), Codes{"ready.no_umad@mlx5_0"});
}

TEST_F(UmadTest, ARoCEPortIsNeverAsked)
{
    auto s = node();
    for (auto& d : s.inventory.devices)
        d.ports[0].link_layer = "Ethernet";
    for (auto& [key, p] : s.readiness.ports) {
        p.mad.reset(); // the source reads no umad of a RoCE port ...
        p.mtu_netdev = "ens1";
        p.mtu = 9000;
    }
    auto judged = at(0, s);
    EXPECT_EQ(find(judged, "ready.no_umad", "mlx5_0"), nullptr);
    EXPECT_EQ(umad(judged, "mlx5_0").verdict, Verdict::Skipped);
    // ... and were one there without its nodes, it would not count either.
    for (auto& [key, p] : s.readiness.ports)
        p.mad = MadPortInputs{true, "", false, "", false, {}};
    auto again = at(1, s);
    EXPECT_EQ(umad(again, "mlx5_1").verdict, Verdict::Skipped);
    EXPECT_EQ(find(again, "ready.no_umad", "mlx5_1"), nullptr);
}

TEST_F(UmadTest, NotReadIsUnknownAndKeepsWhatWasSaid)
{
    auto broken = node();
    mad(broken, "mlx5_0").umad_node = false;
    EXPECT_EQ(readyCodes(at(0, broken)), Codes{"ready.no_umad@mlx5_0"});
    auto unread = node();
    unread.readiness.ports[{"mlx5_0", 1}].mad.reset(); // an entry went away under the read
    auto s = at(1, unread);
    EXPECT_EQ(umad(s, "mlx5_0").verdict, Verdict::Unknown);
    EXPECT_EQ(readyCodes(s), Codes{"ready.no_umad@mlx5_0"}) << "unknown recovers nothing";
}
