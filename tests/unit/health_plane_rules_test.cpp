// plane_rate_degraded over hand-made snapshots: a ConnectX-8 multi-plane port's planes (its SMI
// device's ports) are judged by their rate alone, against the port's fastest plane; their state
// is the native port's on every plane and is not judged per plane.
#include "health/health_engine.hpp"
#include "support/health_fixture.hpp"

#include <fmt/format.h>

#include <gtest/gtest.h>

using namespace nicd;
using namespace nicd::health;

namespace {

// mlx5_0: an active InfiniBand port at 800G with four planes at 200G, plane `slow` at `gbps`.
Snapshot multiPlaneNode(uint32_t slow = 0, double gbps = 100)
{
    Snapshot s;
    auto d = test::device("mlx5_0", 4, "MT4131");
    d.board_id = "MT_0000001093";
    d.ports[0].link_layer = "InfiniBand";
    d.ports[0].rate = "800 Gb/sec (4X XDR)";
    d.ports[0].rate_gbps = 800;
    for (uint32_t plane = 1; plane <= 4; ++plane) {
        PlanePort pp;
        pp.smi_device = "smi0";
        pp.port.num = plane;
        pp.port.state = 4;
        pp.port.state_name = "ACTIVE";
        pp.port.link_layer = "InfiniBand";
        pp.port.rate = plane == slow ? fmt::format("{} Gb/sec (1X NDR)", gbps)
                                     : std::string("200 Gb/sec (1X XDR)");
        pp.port.rate_gbps = plane == slow ? gbps : 200;
        d.planes.push_back(pp);
    }
    s.inventory.devices.push_back(d);
    return s;
}

std::vector<Condition> planeConditions(const Snapshot& s)
{
    std::vector<Condition> out;
    for (const auto& c : s.health.conditions)
        if (c.code == "plane_rate_degraded")
            out.push_back(c);
    return out;
}

} // namespace

TEST(PlaneRules, PlanesAtOneRateRaiseNothing)
{
    HealthEngine engine{Config{}};
    auto s = multiPlaneNode();
    engine.evaluate(s, 1, 1);
    EXPECT_TRUE(s.health.conditions.empty()) << s.health.conditions.front().code;
}

TEST(PlaneRules, APlaneSlowerThanItsSiblingsIsRaisedOnTheParentsPortAndRecovers)
{
    HealthEngine engine{Config{}};
    auto s = multiPlaneNode(2);
    engine.evaluate(s, 1, 1);
    auto raised = planeConditions(s);
    ASSERT_EQ(raised.size(), 1U);
    EXPECT_EQ(raised[0].device, "mlx5_0");
    EXPECT_EQ(raised[0].port, 1U);
    EXPECT_EQ(raised[0].severity, ConditionSeverity::Degraded);
    EXPECT_EQ(raised[0].action, Action::CheckCable);
    EXPECT_EQ(raised[0].message,
              "plane 2 (smi0 port 2) runs at 100 Gb/sec (1X NDR); plane 1 at 200 Gb/sec (1X XDR)");
    EXPECT_EQ(s.health.conditions.size(), 1U) << "nothing else: the port itself is fine";
    auto healthy = multiPlaneNode();
    engine.evaluate(healthy, 2, 2);
    EXPECT_TRUE(planeConditions(healthy).empty());
}

TEST(PlaneRules, APlanesStateIsNotJudgedPerPlane)
{
    HealthEngine engine{Config{}};
    auto s = multiPlaneNode();
    s.inventory.devices[0].planes[3].port.state = 1; // what a plane shows is the port's anyway
    s.inventory.devices[0].planes[3].port.state_name = "DOWN";
    engine.evaluate(s, 1, 1);
    EXPECT_TRUE(s.health.conditions.empty());
}

TEST(PlaneRules, ADownPortOrTheCheckSwitchedOffJudgesNoPlane)
{
    HealthEngine engine{Config{}};
    auto down = multiPlaneNode(3);
    down.inventory.devices[0].ports[0].state = 1;
    engine.evaluate(down, 1, 1);
    EXPECT_TRUE(planeConditions(down).empty());

    Config config;
    config.signals.port_rate_peers = false; // [signals] PortRatePeers=no
    HealthEngine off{config};
    auto s = multiPlaneNode(3);
    off.evaluate(s, 1, 1);
    EXPECT_TRUE(planeConditions(s).empty());
}
