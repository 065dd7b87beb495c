// nicctl's view of the node from GetManagedObjects-shaped data, and `nicctl status` as printed.
#include "node_view.hpp"
#include "replies.hpp"
#include "status_table.hpp"

#include <gtest/gtest.h>

using namespace nicctl;

namespace {

using Props = std::map<std::string, sdbus::Variant>;
using ConditionWire = sdbus::Struct<std::string, std::string, uint32_t, std::string, std::string,
                                    std::string, uint64_t, std::string>;

ManagedObjects statusNode()
{
    ManagedObjects o;
    auto device = [&](const std::string& name, const std::string& health,
                      std::vector<ConditionWire> conditions) {
        Props p{{"Name", sdbus::Variant(name)},
                {"Role", sdbus::Variant(std::string(name == "mlx5_2" ? "compute" : "storage"))},
                {"Function", sdbus::Variant(std::string("pf"))},
                {"PciAddress", sdbus::Variant(std::string("0000:1a:00.0"))},
                {"Driver", sdbus::Variant(std::string("mlx5_core"))},
                {"Plugin", sdbus::Variant(std::string("mlx5"))},
                {"Health", sdbus::Variant(health)},
                {"Conditions", sdbus::Variant(conditions)}};
        o[sdbus::ObjectPath("/io/nicd/Nicd1/device/" + name)]["io.nicd.Nicd1.Device"] = p;
    };
    auto port = [&](const std::string& dev, const std::string& state, const std::string& health,
                    const std::string& qos, std::vector<ConditionWire> conditions) {
        Props p{{"Device", sdbus::Variant(dev)},
                {"Number", sdbus::Variant(uint32_t{1})},
                {"State", sdbus::Variant(state)},
                {"Netdev", sdbus::Variant(std::string("eth_") + dev)},
                {"OperState", sdbus::Variant(std::string(state == "ACTIVE" ? "up" : "down"))},
                {"Rate", sdbus::Variant(std::string("400 Gb/sec (4X NDR)"))},
                {"LinkLayer", sdbus::Variant(std::string("Ethernet"))},
                {"Health", sdbus::Variant(health)},
                {"QosStatus", sdbus::Variant(qos)},
                {"Conditions", sdbus::Variant(conditions)}};
        o[sdbus::ObjectPath("/io/nicd/Nicd1/device/" + dev + "/port/1")]["io.nicd.Nicd1.Port"] = p;
    };
    ConditionWire down{"port_down",      "fatal",           1, "link",
                       "port went down", "check the cable", 5, "check_cable"};
    ConditionWire counter{"counter.link_downed", "fatal", 1, "counter",
                          "link_downed grew",    "x",     5, "check_cable"};
    device("mlx5_10", "healthy", {});
    port("mlx5_10", "ACTIVE", "healthy", "compliant", {});
    o[sdbus::ObjectPath("/io/nicd/Nicd1/device/mlx5_10/port/1")]["io.nicd.Nicd1.Port"]
     ["Neighbors"] = sdbus::Variant(std::vector<bus::NeighborWire>{
         {"leaf-07", "swp12", "0c:42:a1:00:07:00", "swp12", "10.0.7.1", 120}});
    device("mlx5_2", "fatal", {counter, down});
    port("mlx5_2", "DOWN", "fatal", "waiting: link is DOWN; provisioned when it comes up",
         {counter, down});
    // A property of the wrong type reads as empty, not as an error.
    o[sdbus::ObjectPath("/io/nicd/Nicd1/device/mlx5_10")]["io.nicd.Nicd1.Device"]["Netdevs"] =
        sdbus::Variant(uint32_t{7});
    return o;
}

} // namespace

TEST(NicctlStatus, DevicesInNaturalOrderWithTheirPorts)
{
    auto n = nodeViewOf(statusNode());
    ASSERT_EQ(n.devices.size(), 2U);
    EXPECT_EQ(n.devices[0].name, "mlx5_2");
    EXPECT_EQ(n.devices[1].name, "mlx5_10");
    ASSERT_EQ(n.devices[0].ports.size(), 1U);
    EXPECT_EQ(n.devices[0].ports[0].state, "DOWN");
    EXPECT_TRUE(n.devices[1].netdevs.empty());
}

TEST(NicctlStatus, TheReasonIsTheCauseNotItsSymptoms)
{
    auto n = nodeViewOf(statusNode());
    EXPECT_EQ(reasonOf(n.devices[0], n.devices[0].ports[0]), "port_down: port went down");
    EXPECT_EQ(reasonOf(n.devices[1], n.devices[1].ports[0]), "");
}

TEST(NicctlStatus, TheTableSaysWhatIsWrongAndTheSummaryCounts)
{
    auto n = nodeViewOf(statusNode());
    n.health = "fatal";
    n.node_health = "fatal";
    auto out = renderStatus(n, false);
    EXPECT_NE(out.find("DEVICE  ROLE    PORT NETDEV"), std::string::npos) << out;
    EXPECT_NE(out.find("mlx5_2  compute 1    eth_mlx5_2  -             DOWN"), std::string::npos)
        << "no LLDP neighbour: SWITCH -\n"
        << out;
    EXPECT_NE(out.find("mlx5_10 storage 1    eth_mlx5_10 leaf-07:swp12 ACTIVE"), std::string::npos)
        << "the SWITCH column: the switch port the cable reaches\n"
        << out;
    EXPECT_NE(
        out.find(" waiting   fatal   -          -     check_cable port_down: port went down\n"),
        std::string::npos)
        << out;
    EXPECT_NE(out.find("mlx5_10 storage 1"), std::string::npos) << out;
    n.devices[1].ports[0].congestion = "pfc_only";
    out = renderStatus(n, false);
    EXPECT_NE(out.find(" compliant healthy pfc_only   -     -\n"), std::string::npos)
        << "the CONGESTION column\n"
        << out;
    EXPECT_NE(out.find("2 devices, 2 ports: 1 healthy, 0 degraded, 1 fatal. Node: fatal."),
              std::string::npos)
        << out;
    EXPECT_EQ(out.find("\033["), std::string::npos);
    auto colored = renderStatus(n, true);
    EXPECT_NE(colored.find("\033[31mfatal\033[0m"), std::string::npos);
    EXPECT_NE(colored.find("\033[32mhealthy\033[0m"), std::string::npos);
}

// A NIC no plugin claims (an Intel E810 beside the mlx5 NICs) is listed, and the table says
// plainly that nicd has no plugin for it, not that its QoS was "skipped".
TEST(NicctlStatus, ADeviceNoPluginClaimsSaysNoPlugin)
{
    auto objects = statusNode();
    auto& dev = objects[sdbus::ObjectPath("/io/nicd/Nicd1/device/irdma0")]["io.nicd.Nicd1.Device"];
    dev = {{"Name", sdbus::Variant(std::string("irdma0"))},
           {"Driver", sdbus::Variant(std::string("ice"))},
           {"Plugin", sdbus::Variant(std::string())},
           {"Health", sdbus::Variant(std::string("healthy"))}};
    objects[sdbus::ObjectPath("/io/nicd/Nicd1/device/irdma0/port/1")]["io.nicd.Nicd1.Port"] = {
        {"Device", sdbus::Variant(std::string("irdma0"))},
        {"Number", sdbus::Variant(uint32_t{1})},
        {"State", sdbus::Variant(std::string("ACTIVE"))},
        {"Health", sdbus::Variant(std::string("healthy"))},
        {"QosStatus", sdbus::Variant(std::string("skipped: no plugin manages this device"))}};
    auto out = renderStatus(nodeViewOf(objects), false);
    const std::string row = out.substr(
        out.find("\nirdma0 "), out.find('\n', out.find("\nirdma0 ") + 1) - out.find("\nirdma0 "));
    EXPECT_NE(row.find(" ACTIVE "), std::string::npos) << out;
    EXPECT_NE(row.find(" no plugin "), std::string::npos) << out;
    EXPECT_NE(out.find("irdma0: no plugin (driver ice): discovery, link, PMA counters"),
              std::string::npos)
        << out;
    EXPECT_EQ(out.find("mlx5_2: no plugin"), std::string::npos) << out;
    EXPECT_EQ(out.find("skipped"), std::string::npos) << out;
}

// The summary and the exit code follow the node verdict, not the worst device: a fatal storage
// NIC leaves the node degraded.
TEST(NicctlStatus, TheNodeVerdictDecidesTheSummary)
{
    auto objects = statusNode();
    objects[sdbus::ObjectPath("/io/nicd/Nicd1")]["io.nicd.Nicd1.Manager"] =
        Props{{"Health", sdbus::Variant(std::string("fatal"))},
              {"NodeHealth", sdbus::Variant(std::string("degraded"))}};
    auto n = nodeViewOf(objects);
    EXPECT_EQ(n.node_health, "degraded");
    EXPECT_NE(renderStatus(n, false).find("Node: degraded."), std::string::npos);
    EXPECT_EQ(healthExitCode(n.node_health), 1);
    EXPECT_EQ(statusJson(n)["node_health"], "degraded");
    EXPECT_EQ(statusJson(n)["devices"][0]["role"], "compute");
    EXPECT_EQ(statusJson(n)["devices"][0]["ports"][0]["action"], "check_cable");
    EXPECT_EQ(statusJson(n)["devices"][0]["conditions"][0]["action"], "check_cable");
}

// Manager.Conditions: the node's own conditions and those of a NIC that is gone (no object of its
// own) are printed under the table; a device's are on its rows already.
TEST(NicctlStatus, TheNodesOwnConditionsAndGoneNicsFollowTheTable)
{
    auto n = nodeViewOf(statusNode());
    addNodeConditions(
        n, {{"", "inventory_short.compute", "fatal", 0, "inventory",
             "expected 8 compute ports at ≥ 400 Gb/s (auto: 8 × NVIDIA H100 SXM5 80GB), found 7 "
             "up (mlx5_3/1 is down)",
             "x", 5, "reseat_nic"},
            {"mlx5_7", "device_missing", "fatal", 0, "device",
             "RDMA device present at the last boot (PCI 0000:cd:00.0) is absent in this one", "x",
             5, "reseat_nic"},
            {"mlx5_2", "port_down", "fatal", 1, "link", "port went down", "x", 5, "check_cable"}});
    ASSERT_EQ(n.node_conditions.size(), 2U) << "mlx5_2's is on its rows";
    auto out = renderStatus(n, false);
    EXPECT_NE(out.find("\nfatal node: inventory_short.compute: expected 8 compute ports at ≥ 400 "
                       "Gb/s (auto: 8 × NVIDIA H100 SXM5 80GB), found 7 up (mlx5_3/1 is down) "
                       "-> reseat_nic\n"),
              std::string::npos)
        << out;
    EXPECT_NE(out.find("\nfatal mlx5_7 (gone): device_missing: RDMA device present at the last "
                       "boot (PCI 0000:cd:00.0) is absent in this one -> reseat_nic\n"),
              std::string::npos)
        << out;
    auto j = statusJson(n);
    EXPECT_EQ(j["node_conditions"][0]["device"], "");
    EXPECT_EQ(j["node_conditions"][0]["code"], "inventory_short.compute");
    EXPECT_EQ(j["node_conditions"][1]["device"], "mlx5_7");
}

TEST(NicctlStatus, ExitCodesForScripts)
{
    EXPECT_EQ(healthExitCode("healthy"), 0);
    EXPECT_EQ(healthExitCode("degraded"), 1);
    EXPECT_EQ(healthExitCode("unknown"), 1);
    EXPECT_EQ(healthExitCode("fatal"), 2);
}

TEST(NicctlStatus, JsonCarriesTheFullQosReason)
{
    auto j = statusJson(nodeViewOf(statusNode()));
    EXPECT_EQ(j["devices"][0]["ports"][0]["qos"]["status"],
              "waiting: link is DOWN; provisioned when it comes up");
    EXPECT_EQ(j["devices"][0]["ports"][0]["reason"], "port_down: port went down");
}

TEST(NicctlReplies, QosRowsAndEvents)
{
    std::vector<QosResultRow> rows{{"mlx5_0", 1, "pfc", "3", "4", false, true, ""},
                                   {"mlx5_0", 1, "trust", "dscp", "dscp", true, false, ""}};
    auto out = renderQosRows(rows, true);
    EXPECT_NE(out.find("mlx5_0/1 pfc     3       4        -      noncompliant, would change"),
              std::string::npos)
        << out;
    // The SWITCH column: what the switch port advertises for the setting in LLDP.
    out = renderQosRows(rows, true, {{{"mlx5_0", 1}, {{"pfc", "3,4"}}}});
    EXPECT_NE(out.find("PORT     SETTING DESIRED OBSERVED SWITCH RESULT\n"), std::string::npos)
        << out;
    EXPECT_NE(out.find("mlx5_0/1 pfc     3       4        3,4    noncompliant"), std::string::npos)
        << out;
    EXPECT_NE(out.find("mlx5_0/1 trust   dscp    dscp     -      compliant"), std::string::npos)
        << out;
    EXPECT_EQ(qosRowsJson(rows, {{{"mlx5_0", 1}, {{"pfc", "3,4"}}}})[0]["switch"], "3,4");
    EXPECT_NE(out.find("2 settings: 1 compliant, 1 would change, 0 with errors."),
              std::string::npos);
    EXPECT_EQ(qosExitCode(rows, true), 0) << "a dry run that would fix everything";
    EXPECT_EQ(qosExitCode(rows, false), 1);
    rows[1].error = "netdev ens1f0np0: DCB not supported by driver (EOPNOTSUPP)";
    EXPECT_EQ(qosExitCode(rows, true), 2);
    EXPECT_EQ(qosExitCode({}, false), 0);
    EventRow e{7, 1'700'000'000'000'000, "raised", "fatal",      "mlx5_1",
               1, "port_down",           "down",   "check_cable"};
    EXPECT_EQ(formatEvent(e),
              "2023-11-14T22:13:20Z #7 fatal raised mlx5_1/1 port_down: down -> check_cable");
    EXPECT_EQ(eventJson(e)["action"], "check_cable");
    e.kind = "recovered";
    e.action = "none";
    EXPECT_EQ(formatEvent(e), "2023-11-14T22:13:20Z #7 fatal recovered mlx5_1/1 port_down: down");
}

TEST(NicctlStatus, TheReadyColumnSaysWhetherNcclCanUseTheComputePort)
{
    auto o = statusNode();
    using CheckWire = sdbus::Struct<std::string, std::string, std::string>;
    auto& p = o[sdbus::ObjectPath("/io/nicd/Nicd1/device/mlx5_10/port/1")]["io.nicd.Nicd1.Port"];
    p["Ready"] = sdbus::Variant(std::string("no"));
    p["ReadyChecks"] = sdbus::Variant(std::vector<CheckWire>{
        {"gid", "failed", "no RoCE v2 GID with an IP address (no GID in use)"},
        {"mtu", "ok", "MTU 9000 on eth_mlx5_10 (RoCE MTU 4096)"}});
    auto n = nodeViewOf(o);
    ASSERT_EQ(n.devices[1].ports[0].ready_checks.size(), 2U);
    EXPECT_EQ(n.devices[1].ports[0].ready_checks[0].verdict, "failed");
    auto out = renderStatus(n, false);
    EXPECT_NE(out.find(" READY ACTION"), std::string::npos) << out;
    EXPECT_NE(out.find(" compliant healthy -          no    -"), std::string::npos) << out;
    EXPECT_NE(renderStatus(n, true).find("\033[31mno\033[0m"), std::string::npos);
    p["Ready"] = sdbus::Variant(std::string("yes"));
    EXPECT_NE(renderStatus(nodeViewOf(o), false).find(" compliant healthy -          yes   -"),
              std::string::npos);
}
