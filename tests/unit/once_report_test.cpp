// `nicd --once` reads like a report: a summary, only what is not ok (every port and setting with
// -v), a condition raised alike on many ports once, a repair as "pcp -> dscp (repaired)", and
// "no RDMA devices found" on a node without any.
#include "report/once_report.hpp"

#include <gtest/gtest.h>

using namespace nicd;

namespace {

Device device(const std::string& name, int state)
{
    Device d;
    d.ibdev = name;
    d.role = Role::Compute;
    d.plugin = "mlx5";
    Port p;
    p.num = 1;
    p.state = state;
    p.state_name = state == 4 ? "ACTIVE" : "DOWN";
    p.phys_state_name = state == 4 ? "LinkUp" : "Disabled";
    p.link_layer = "Ethernet";
    p.netdevs = {"ens_" + name};
    d.ports.push_back(p);
    return d;
}

Condition condition(const std::string& dev, const std::string& code, const std::string& message,
                    ConditionSeverity severity)
{
    Condition c;
    c.device = dev;
    c.port = 1;
    c.code = code;
    c.message = message;
    c.severity = severity;
    c.advice = "do this";
    c.action = Action::CheckCable;
    return c;
}

// Eight compute ports, one down; every port carries the same node-wide readiness finding.
Snapshot reportNode()
{
    Snapshot s;
    for (int i = 0; i < 8; ++i) {
        auto name = "mlx5_" + std::to_string(i);
        s.inventory.devices.push_back(device(name, i == 3 ? 1 : 4));
        s.health.ports[{name, 1}] = i == 3 ? Health::Fatal : Health::Healthy;
        s.health.devices[name] = i == 3 ? Health::Fatal : Health::Healthy;
        s.health.conditions.push_back(condition(name, "ready.no_gpudirect",
                                                "nvidia_peermem is not loaded",
                                                ConditionSeverity::Degraded));
    }
    s.health.conditions.push_back(
        condition("mlx5_3", "port_down", "port went down", ConditionSeverity::Fatal));
    s.health.node = Health::Fatal;
    s.qos.mode = "enforce";
    for (int i = 0; i < 8; ++i) {
        auto& port = s.qos.ports[{"mlx5_" + std::to_string(i), 1}];
        port.managed = true;
        port.status = "compliant";
        port.settings.push_back({"trust", "dscp", "dscp", true, "", i == 5, i == 5 ? "pcp" : ""});
        port.settings.push_back({"pfc", "3", "3", true, "", false, ""});
    }
    return s;
}

size_t occurrences(const std::string& text, const std::string& what)
{
    size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
        ++n;
    return n;
}

} // namespace

TEST(OnceReport, ASummaryThenOnlyWhatIsNotOk)
{
    auto out = report::onceReport(reportNode(), false);
    EXPECT_EQ(out.rfind("summary: 8 devices, 8 ports (1 down), 0 of 0 plugins running", 0), 0U)
        << out;
    EXPECT_NE(out.find("\nmlx5_3 "), std::string::npos) << "the port that is down: " << out;
    EXPECT_EQ(out.find("\nmlx5_0 "), std::string::npos) << "a healthy port is not listed: " << out;
    EXPECT_NE(out.find("7 healthy ports up, not shown (nicd --once -v shows every port)\n"),
              std::string::npos)
        << out;
    EXPECT_NE(out.find("node health: fatal\n"), std::string::npos);
    auto all = report::onceReport(reportNode(), true);
    EXPECT_NE(all.find("\nmlx5_0 "), std::string::npos) << "-v lists every port: " << all;
    EXPECT_EQ(all.find("not shown"), std::string::npos);
}

TEST(OnceReport, AConditionRaisedAlikeOnEveryPortIsOneLine)
{
    auto out = report::onceReport(reportNode(), false);
    EXPECT_EQ(occurrences(out, "[ready.no_gpudirect]"), 1U) << out;
    EXPECT_NE(
        out.find("degraded mlx5_0 port 1, mlx5_1 port 1, mlx5_2 port 1, mlx5_3 port 1, "
                 "mlx5_4 port 1, mlx5_5 port 1, mlx5_6 port 1, mlx5_7 port 1 (8 places): "
                 "nvidia_peermem is not loaded [ready.no_gpudirect] -> check_cable: do this\n"),
        std::string::npos)
        << out;
    EXPECT_NE(out.find("fatal mlx5_3 port 1: port went down [port_down] -> check_cable: do this\n"),
              std::string::npos)
        << out;
}

TEST(OnceReport, QosShowsARepairAndLeavesOutWhatIsCompliant)
{
    auto s = reportNode();
    auto& differs = s.qos.ports[{"mlx5_7", 1}];
    differs.status = "noncompliant";
    differs.settings[1] = {"pfc", "3", "none", false, "", false, ""};
    auto out = report::onceReport(s, false);
    EXPECT_NE(out.find("QoS (Mode=enforce): 7 ports compliant (1 repaired), 1 not\n"),
              std::string::npos)
        << out;
    EXPECT_NE(out.find("  mlx5_5 port 1: compliant\n    trust         pcp -> dscp (repaired)\n"),
              std::string::npos)
        << out;
    EXPECT_NE(out.find("  mlx5_7 port 1: noncompliant\n    pfc           want 3          have none "
                       "      DIFFERS\n"),
              std::string::npos)
        << out;
    EXPECT_EQ(out.find("mlx5_0 port 1: compliant"), std::string::npos) << out;
    EXPECT_EQ(out.find(" ok\n"), std::string::npos) << "no ok rows without -v: " << out;
    auto all = report::onceReport(s, true);
    EXPECT_NE(all.find("  mlx5_0 port 1: compliant\n    trust         want dscp       have dscp "
                       "      ok\n"),
              std::string::npos)
        << all;
}

TEST(OnceReport, NoRdmaDevicesFoundIsSaid)
{
    Snapshot empty;
    auto out = report::onceReport(empty, false);
    EXPECT_NE(out.find("no RDMA devices found (nothing in /sys/class/infiniband)"),
              std::string::npos)
        << out;
    EXPECT_EQ(out.find("DEVICE "), std::string::npos) << "no empty table: " << out;
}

TEST(OnceReport, JsonHasEveryPortAndSettingWithNullsAndBooleans)
{
    auto j = report::onceJson(reportNode());
    EXPECT_EQ(j["node_health"], "fatal");
    ASSERT_EQ(j["devices"].size(), 8U);
    EXPECT_EQ(j["devices"][0]["ports"][0]["health"], "healthy");
    EXPECT_EQ(j["devices"][3]["ports"][0]["state"], "DOWN");
    EXPECT_EQ(j["conditions"].size(), 9U) << "every condition, each with its place";
    EXPECT_EQ(j["conditions"][0]["action"], "check_cable");
    ASSERT_EQ(j["qos"]["ports"].size(), 8U);
    EXPECT_EQ(j["qos"]["ports"][5]["settings"][0]["repaired"], true);
    EXPECT_EQ(j["qos"]["ports"][5]["settings"][0]["was"], "pcp");
    EXPECT_TRUE(j["qos"]["ports"][0]["settings"][0]["was"].is_null());
    EXPECT_TRUE(j["qos"]["waiting"].is_null());
    EXPECT_EQ(j["qos"]["dry_run"], false);
}
