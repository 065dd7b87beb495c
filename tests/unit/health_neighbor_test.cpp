// What each RoCE port hears in LLDP, judged (health/neighbor_rules.hpp): the wiring map's
// expectation against the neighbour, a port hearing two neighbours, two compute ports on one
// switch port, an up port of the map hearing nothing for three TTLs, the switch's DCB against the
// host's; nothing judged without lldpd; every port condition naming the switch port.
#include "health/health_engine.hpp"
#include "health/neighbor_rules.hpp"
#include "neighbor/dcbx_tlv.hpp"
#include "support/health_fixture.hpp"

#include <gtest/gtest.h>

using namespace nicd;
using namespace nicd::health;
using namespace nicd::test;
using nicd::config::globMatches;
using nicd::config::WiringRule;

namespace {

LldpNeighbor heardAs(const std::string& sw, const std::string& port, uint32_t ttl = 120,
                     uint8_t pfc = 0x08)
{
    LldpNeighbor n;
    n.chassis_id = "0c:42:a1:00:00:" + sw.substr(sw.size() - 2);
    n.chassis_id_type = "mac";
    n.system_name = sw;
    n.port_id = port;
    n.port_id_type = "ifname";
    n.ttl_seconds = ttl;
    n.org_tlvs = {{neighbor::kIeee8021Oui, neighbor::kSubtypePfcConfig, {0x08, pfc}}};
    return n;
}

Device roce(const std::string& ibdev, const std::string& netdev, const std::string& pci,
            int state = 4, Role role = Role::Compute)
{
    auto d = test::device(ibdev, state);
    d.pci_address = pci;
    d.role = role;
    d.ports[0].netdevs = {netdev};
    return d;
}

class NeighborRulesTest : public HealthTest {
protected:
    void wiring(std::vector<WiringRule> rules)
    {
        config_.health.wiring = {"/etc/nicd/wiring.map", std::move(rules)};
        engine_.configure(config_);
    }
    // mlx5_0 (eth0) and mlx5_1 (eth1), compute, up; lldpd runs and hears `heard`.
    Snapshot node(std::map<std::string, std::vector<LldpNeighbor>> heard, int state0 = 4)
    {
        auto s = snap({roce("mlx5_0", "eth0", "0000:1a:00.0", state0),
                       roce("mlx5_1", "eth1", "0000:1b:00.0")});
        s.neighbors.available = true;
        s.neighbors.by_netdev = std::move(heard);
        return s;
    }
    // The port's QoS as nicd provisioned and read it back: PFC on `pfc`.
    static void managed(Snapshot& s, const std::string& ibdev, const std::string& pfc)
    {
        PortQosState st;
        st.managed = true;
        st.status = "compliant";
        QosSettingState pfc_state;
        pfc_state.setting = "pfc";
        pfc_state.desired = pfc_state.observed = pfc;
        pfc_state.compliant = true;
        QosSettingState trust = pfc_state;
        trust.setting = "trust";
        trust.desired = trust.observed = "dscp";
        st.settings = {pfc_state, trust};
        s.qos.ports[{ibdev, 1}] = st;
    }
};

} // namespace

TEST_F(NeighborRulesTest, TheNeighbourTheMapExpectsRaisesNothingAnotherIsTheWrongPatch)
{
    wiring({{"0000:1a:00.0", "leaf-0[1-2]", "swp*", 3}, {"eth1", "leaf-02", "*", 4}});
    auto s = at(
        10, node({{"eth0", {heardAs("leaf-01", "swp7")}}, {"eth1", {heardAs("leaf-02", "swp7")}}}));
    EXPECT_TRUE(codesAt(s, "wiring.").empty());

    s = at(20,
           node({{"eth0", {heardAs("leaf-03", "swp7")}}, {"eth1", {heardAs("leaf-02", "swp7")}}}));
    const auto* c = find(s, "wiring.unexpected_neighbor", "mlx5_0");
    ASSERT_TRUE(c);
    EXPECT_EQ(c->severity, ConditionSeverity::Degraded);
    EXPECT_EQ(c->action, Action::CheckCable);
    EXPECT_EQ(c->message, "eth0 reaches leaf-03 swp7 (chassis 0c:42:a1:00:00:03); the wiring map "
                          "/etc/nicd/wiring.map line 3 expects leaf-0[1-2] swp*: the cable is "
                          "patched to the wrong switch port");
    EXPECT_EQ(portHealth(s, "mlx5_0"), Health::Degraded);

    s = at(30,
           node({{"eth0", {heardAs("leaf-01", "swp7")}}, {"eth1", {heardAs("leaf-02", "swp7")}}}));
    EXPECT_FALSE(find(s, "wiring.unexpected_neighbor", "mlx5_0")) << "re-patched: it recovers";
}

TEST_F(NeighborRulesTest, TwoCablesSwappedAreBothWrong)
{
    wiring({{"eth0", "leaf-01", "*", 1}, {"eth1", "leaf-02", "*", 2}});
    auto s = at(
        10, node({{"eth0", {heardAs("leaf-02", "swp7")}}, {"eth1", {heardAs("leaf-01", "swp7")}}}));
    EXPECT_EQ(codesAt(s, "wiring."),
              (std::vector<std::string>{"wiring.unexpected_neighbor@mlx5_0",
                                        "wiring.unexpected_neighbor@mlx5_1"}));
}

TEST_F(NeighborRulesTest, APortHearingTwoNeighboursIsRaisedWithoutAMap)
{
    auto s = at(10, node({{"eth0", {heardAs("leaf-01", "swp7"), heardAs("leaf-02", "swp3")}}}));
    const auto* c = find(s, "wiring.unexpected_neighbor", "mlx5_0");
    ASSERT_TRUE(c);
    EXPECT_EQ(c->message, "eth0 hears 2 LLDP neighbours, leaf-01 swp7 and leaf-02 swp3: one cable "
                          "reaches one switch port, so something between passes another's frames");
}

TEST_F(NeighborRulesTest, TwoComputePortsOnOneSwitchPortAreBothRaisedStoragePortsAreNot)
{
    auto s = at(
        10, node({{"eth0", {heardAs("leaf-01", "swp7")}}, {"eth1", {heardAs("leaf-01", "swp7")}}}));
    EXPECT_EQ(codesAt(s, "wiring."),
              (std::vector<std::string>{"wiring.unexpected_neighbor@mlx5_0",
                                        "wiring.unexpected_neighbor@mlx5_1"}));
    EXPECT_EQ(find(s, "wiring.unexpected_neighbor", "mlx5_0")->message,
              "eth0 and eth1 both reach leaf-01 swp7: two ports of this node cannot share one "
              "switch port, so one of them is patched wrong (or the switch sends one port ID on "
              "several ports)");

    auto storage = snap({roce("mlx5_8", "eth8", "0000:e1:00.0", 4, Role::Storage),
                         roce("mlx5_9", "eth9", "0000:e1:00.1", 4, Role::Storage)});
    storage.neighbors.available = true;
    storage.neighbors.by_netdev = {{"eth8", {heardAs("leaf-01", "swp7")}},
                                   {"eth9", {heardAs("leaf-01", "swp7")}}};
    s = at(20, std::move(storage));
    EXPECT_FALSE(find(s, "wiring.unexpected_neighbor", "mlx5_8")) << "only compute ports so";
    EXPECT_FALSE(find(s, "wiring.unexpected_neighbor", "mlx5_9"));
}

TEST_F(NeighborRulesTest, AnUpPortOfTheMapQuietForThreeTtlsHasNoNeighbour)
{
    wiring({{"eth*", "leaf-*", "*", 1}});
    at(0,
       node({{"eth0", {heardAs("leaf-01", "swp7", 30)}}, {"eth1", {heardAs("leaf-02", "swp7")}}}));
    // eth0 stops hearing its neighbour (TTL 30 s): three TTLs are 90 s.
    auto quiet = [&] { return node({{"eth1", {heardAs("leaf-02", "swp7")}}}); };
    at(10, quiet());
    auto s = at(99, quiet());
    EXPECT_FALSE(find(s, "wiring.no_neighbor", "mlx5_0")) << "89 s: not yet three TTLs";
    s = at(101, quiet());
    const auto* c = find(s, "wiring.no_neighbor", "mlx5_0");
    ASSERT_TRUE(c);
    EXPECT_EQ(c->action, Action::CheckCable);
    EXPECT_EQ(c->message, "eth0 is up and has heard no LLDP for 90 s or more (3 × a TTL of 30 s) "
                          "while lldpd listens on it; the wiring map /etc/nicd/wiring.map line 1 "
                          "expects leaf-*");
    // A port that is down is the link rules' (port_down), not this.
    s = at(110, node({{"eth1", {heardAs("leaf-02", "swp7")}}}, 1));
    EXPECT_FALSE(find(s, "wiring.no_neighbor", "mlx5_0"));
}

TEST_F(NeighborRulesTest, APortNeverHeardWaitsThreeOfTheNodesLongestTtl)
{
    wiring({{"eth0", "leaf-01", "*", 1}});
    auto quiet = [&] { return node({{"eth1", {heardAs("leaf-02", "swp7", 120)}}}); };
    at(0, quiet());
    EXPECT_FALSE(find(at(359, quiet()), "wiring.no_neighbor", "mlx5_0"));
    EXPECT_TRUE(find(at(361, quiet()), "wiring.no_neighbor", "mlx5_0"));
}

TEST_F(NeighborRulesTest, WithoutAMapAQuietPortIsNoAlarm)
{
    auto quiet = [&] { return node({}); };
    at(0, quiet());
    EXPECT_TRUE(codesAt(at(10000, quiet()), "wiring.").empty())
        << "many fabrics send no LLDP: only a port the map names is expected to hear one";
}

TEST_F(NeighborRulesTest, WithoutLldpdNothingIsJudgedAndWhatWasRaisedHolds)
{
    wiring({{"eth0", "leaf-01", "*", 1}});
    at(10, node({{"eth0", {heardAs("leaf-09", "swp7")}}}));
    auto s = node({});
    s.neighbors = NeighborReading{};
    s.neighbors.unavailable = "no lldpd: /run/lldpd.socket: No such file or directory";
    s = at(20, std::move(s));
    EXPECT_TRUE(find(s, "wiring.unexpected_neighbor", "mlx5_0")) << "unknown now: it holds";
    EXPECT_FALSE(find(s, "wiring.no_neighbor", "mlx5_1"));

    // lldpd runs but does not listen on eth0 (configured with -I): eth0 is not judged.
    auto partial = node({});
    partial.neighbors.listened = std::set<std::string>{"eth1"};
    at(30, partial);
    EXPECT_FALSE(find(at(10000, partial), "wiring.no_neighbor", "mlx5_0"));
}

TEST_F(NeighborRulesTest, TheSwitchsPfcAgainstTheHostsIsASwitchPortMismatch)
{
    auto s = node({{"eth0", {heardAs("leaf-07", "swp12", 120, 0x18)}},
                   {"eth1", {heardAs("leaf-08", "swp12", 120, 0x08)}}});
    managed(s, "mlx5_0", "3");
    managed(s, "mlx5_1", "3");
    s = at(10, std::move(s));
    const auto* c = find(s, "qos.switch_mismatch", "mlx5_0");
    ASSERT_TRUE(c);
    EXPECT_EQ(c->severity, ConditionSeverity::Degraded);
    EXPECT_EQ(c->action, Action::CheckSwitchPort);
    EXPECT_EQ(c->message, "leaf-07 swp12 enables PFC on 3,4; this host on 3");
    EXPECT_FALSE(find(s, "qos.switch_mismatch", "mlx5_1")) << "both ends on 3";

    // A port whose QoS nicd does not manage is the operator's: not compared.
    auto unmanaged = node({{"eth0", {heardAs("leaf-07", "swp12", 120, 0x18)}}});
    s = at(20, std::move(unmanaged));
    EXPECT_FALSE(find(s, "qos.switch_mismatch", "mlx5_0"));
}

TEST_F(NeighborRulesTest, EveryPortConditionNamesTheSwitchPort)
{
    auto s = at(10, node({{"eth0", {heardAs("leaf-07", "swp12")}}}, 1));
    const auto* down = find(s, "port_down", "mlx5_0");
    if (!down)
        down = find(s, "port_never_up", "mlx5_0");
    ASSERT_TRUE(down);
    EXPECT_TRUE(down->message.ends_with(" (switch port leaf-07 swp12)")) << down->message;
    EXPECT_EQ(portNeighborLabels(s).at({"mlx5_0", 1}), "leaf-07 swp12");
}

TEST(WiringMap, LinesGlobsAndMistakesByLine)
{
    std::vector<WiringRule> rules;
    auto errors = parseWiringMap("# port switch port\n"
                                 "0000:1a:00.0   su*-leaf-01  swp*\n"
                                 "\n"
                                 "ens1f1np1 su?-leaf-0[1-4]   # any port\n",
                                 rules);
    EXPECT_TRUE(errors.empty());
    ASSERT_EQ(rules.size(), 2u);
    EXPECT_EQ(rules[0], (WiringRule{"0000:1a:00.0", "su*-leaf-01", "swp*", 2}));
    EXPECT_EQ(rules[1], (WiringRule{"ens1f1np1", "su?-leaf-0[1-4]", "*", 4}));
    EXPECT_TRUE(globMatches(rules[1].switch_name, "su2-leaf-03"));
    EXPECT_FALSE(globMatches(rules[1].switch_name, "su2-leaf-05"));

    rules.clear();
    errors = parseWiringMap("eth0\n"
                            "eth1 leaf-01 swp1 extra\n"
                            "eth2 leaf;rm swp1\n"
                            "eth3 leaf-01\n"
                            "eth3 leaf-02\n",
                            rules);
    ASSERT_EQ(errors.size(), 4u);
    EXPECT_EQ(errors[0].line, 1);
    EXPECT_NE(errors[0].message.find("1 words"), std::string::npos);
    EXPECT_EQ(errors[1].line, 2);
    EXPECT_EQ(errors[2].line, 3);
    EXPECT_NE(errors[2].message.find("\"leaf;rm\""), std::string::npos);
    EXPECT_EQ(errors[3].line, 5);
    EXPECT_NE(errors[3].message.find("port eth3 given twice (first on line 4)"), std::string::npos);
}

TEST_F(NeighborRulesTest, APortWhoseFirmwareRunsDcbxAndHearsNothingIsSaidSoAtInfo)
{
    wiring({{"eth0", "leaf-01", "*", 1}});
    auto quiet = [&] {
        auto s = node({{"eth1", {heardAs("leaf-02", "swp7", 10)}}});
        managed(s, "mlx5_0", "3");
        s.qos.ports[{"mlx5_0", 1}].lldp_agent =
            "the NIC firmware runs DCBX on eth0 (DCBX mode 0x0c, no HOST bit): its own LLDP agent "
            "may take the switch's frames before the host's lldpd";
        return s;
    };
    auto s = at(0, quiet());
    const auto* c = find(s, "lldp_firmware_agent", "mlx5_0");
    ASSERT_TRUE(c);
    EXPECT_EQ(c->severity, ConditionSeverity::Info);
    EXPECT_EQ(portHealth(s, "mlx5_0"), Health::Healthy) << "said, not judged";
    EXPECT_NE(c->message.find("eth0 hears no LLDP neighbour, and the NIC firmware runs DCBX"),
              std::string::npos)
        << c->message;
    s = at(31, quiet());
    const auto* none = find(s, "wiring.no_neighbor", "mlx5_0");
    ASSERT_TRUE(none);
    EXPECT_NE(none->message.find("; the NIC firmware runs DCBX on eth0"), std::string::npos)
        << none->message;
}

TEST_F(NeighborRulesTest, WhenLldpdComesBackAQuietPortWaitsThreeTtlsAgain)
{
    wiring({{"eth0", "leaf-01", "*", 1}});
    auto quiet = [&] { return node({{"eth1", {heardAs("leaf-02", "swp7", 10)}}}); };
    at(0, quiet());
    auto gone = node({});
    gone.neighbors = NeighborReading{};
    at(20, gone); // lldpd stopped for a long while
    at(1000, gone);
    EXPECT_FALSE(find(at(1001, quiet()), "wiring.no_neighbor", "mlx5_0"))
        << "back after 980 s unheard: the port is not judged quiet for the time nobody listened";
    EXPECT_TRUE(find(at(1032, quiet()), "wiring.no_neighbor", "mlx5_0")) << "three TTLs of 10 s";
}
