// An InfiniBand port's IPoIB netdev: admin up but not up while the port is ACTIVE is IPoIB's own
// failure (ipoib_down.<if>, degraded, the subnet manager's side) after a 30-s grace, never the
// fatal netdev_down of a RoCE netdev, whose traffic the netdev carries. Admin down is the
// operator's choice; a port that is down says so itself (port_down).
#include "health/health_engine.hpp"
#include "support/health_fixture.hpp"

#include <gtest/gtest.h>

using namespace nicd;
using namespace nicd::health;
using namespace nicd::test;

namespace {

class IpoibTest : public HealthTest {
protected:
    // mlx5_4: an InfiniBand port (state 4 ACTIVE or 1 DOWN) with ib0 in `operstate`; carrier
    // unset is ib0 admin down (the kernel refuses to read it then).
    Snapshot node(int state, const std::string& operstate, std::optional<bool> carrier)
    {
        auto d = test::device("mlx5_4", state);
        d.ports[0].link_layer = "InfiniBand";
        d.ports[0].phys_state = state == 4 ? 5 : 2;
        d.ports[0].netdevs = {"ib0"};
        auto s = snap({d});
        s.netdevs["ib0"] = {"ib0", operstate, carrier, 9};
        return s;
    }
    const Condition* ipoib(const Snapshot& s) { return find(s, "ipoib_down.ib0", "mlx5_4"); }
};

} // namespace

TEST_F(IpoibTest, AdminUpWithoutCarrierOnAnActivePortIsDegradedAfterItsGrace)
{
    auto s = at(10, node(4, "down", false));
    EXPECT_FALSE(ipoib(s)) << "a join takes a second or two after the port turns ACTIVE";
    s = at(25, node(4, "down", false));
    EXPECT_FALSE(ipoib(s));
    s = at(41, node(4, "down", false));
    ASSERT_TRUE(ipoib(s)) << "30 s not up on an ACTIVE port";
    EXPECT_EQ(ipoib(s)->severity, ConditionSeverity::Degraded);
    EXPECT_EQ(ipoib(s)->action, Action::CheckSwitchPort);
    EXPECT_NE(ipoib(s)->message.find("ib0 is admin up but down (no carrier) while its "
                                     "InfiniBand port is ACTIVE"),
              std::string::npos)
        << ipoib(s)->message;
    EXPECT_NE(ipoib(s)->advice.find("P_Key"), std::string::npos);
    EXPECT_EQ(portHealth(s, "mlx5_4"), Health::Degraded);
    EXPECT_FALSE(find(s, "netdev_down.ib0", "mlx5_4")) << "RDMA traffic does not need IPoIB";
    s = at(42, node(4, "up", true));
    EXPECT_FALSE(ipoib(s)) << "joined: it recovers";
    EXPECT_EQ(portHealth(s, "mlx5_4"), Health::Healthy);
}

TEST_F(IpoibTest, AnIpoibNetdevThatWasUpAndFallsIsNeverFatal)
{
    at(10, node(4, "up", true));
    auto s = at(11, node(4, "down", false));
    EXPECT_FALSE(find(s, "netdev_down.ib0", "mlx5_4"));
    EXPECT_FALSE(ipoib(s)) << "a rejoin after an SM handover takes seconds";
    s = at(45, node(4, "down", false));
    ASSERT_TRUE(ipoib(s));
    EXPECT_EQ(portHealth(s, "mlx5_4"), Health::Degraded);
    EXPECT_FALSE(find(s, "link_flapping", "mlx5_4")) << "the IB port never went down";
}

TEST_F(IpoibTest, AdminDownOrAPortThatIsDownRaisesNoIpoibCondition)
{
    auto s = at(10, node(4, "down", std::nullopt));
    s = at(100, node(4, "down", std::nullopt));
    EXPECT_FALSE(ipoib(s)) << "ip link set ib0 down is the operator's choice";
    EXPECT_EQ(portHealth(s, "mlx5_4"), Health::Healthy);
    s = at(110, node(1, "lowerlayerdown", false));
    s = at(200, node(1, "lowerlayerdown", false));
    EXPECT_FALSE(ipoib(s)) << "the port itself is down: its own conditions say so";
}

TEST_F(IpoibTest, NicdStartedLongAfterBootJudgesAtOnce)
{
    // nicd --once, or a restart, on a node up for an hour: no join is in progress.
    auto s = at(3600, node(4, "down", false));
    ASSERT_TRUE(ipoib(s));
    s = at(3601, node(4, "up", true));
    EXPECT_FALSE(ipoib(s));
}
