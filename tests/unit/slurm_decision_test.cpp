// `nicctl slurm-check`'s judgement: nicd's node verdict + the node's drain reason in Slurm + since
// when nicd is healthy → drain, resume or leave alone (tools/nicctl/slurm_decision.hpp).
#include "slurm_decision.hpp"

#include <gtest/gtest.h>

using namespace nicctl;
using namespace nicctl::slurm;

namespace {

using Kind = Decision::Kind;
constexpr uint64_t kNow = 1'800'000'000;

nicd::dbus::ConditionRow condition(const std::string& code, const std::string& severity,
                                   uint32_t port, const std::string& action)
{
    nicd::dbus::ConditionRow c;
    c.code = code;
    c.severity = severity;
    c.port = port;
    c.action = action;
    return c;
}

DeviceView device(const std::string& name, const std::string& role, const std::string& health,
                  std::vector<nicd::dbus::ConditionRow> conditions = {})
{
    DeviceView d;
    d.name = name;
    d.role = role;
    d.health = health;
    d.conditions = std::move(conditions);
    return d;
}

NodeView node(const std::string& verdict, std::vector<DeviceView> devices = {})
{
    NodeView n;
    n.health = n.node_health = verdict;
    n.devices = std::move(devices);
    return n;
}

const Observation kFatal{Verdict::Fatal, "mlx5_3/1 port_down check_cable"};
const Observation kHealthy{Verdict::Healthy, ""};
const Observation kDegraded{Verdict::Degraded, "mlx5_1/1 fec_ber_high replace_cable"};
const Observation kUnreachable{Verdict::Unreachable, "Failed to open bus"};

} // namespace

TEST(SlurmObserve, FatalComputePortNamesDevicePortCodeAndAction)
{
    auto n = node("fatal", {device("mlx5_0", "storage", "fatal",
                                   {condition("port_down", "fatal", 1, "check_cable")}),
                            device("mlx5_3", "compute", "fatal",
                                   {condition("port_down", "fatal", 1, "check_cable")})});
    auto seen = observe(n);
    EXPECT_EQ(seen.verdict, Verdict::Fatal);
    // The storage NIC is fatal too, but a compute one makes the node fatal: it is the one named.
    EXPECT_EQ(seen.problem, "mlx5_3/1 port_down check_cable");
}

TEST(SlurmObserve, NodeConditionAndHostileNamesStayOneSafeLine)
{
    auto n = node("fatal");
    n.node_conditions.push_back(condition("inventory_short.compute", "fatal", 0, "replace_nic"));
    EXPECT_EQ(observe(n).problem, "node inventory_short.compute replace_nic");

    auto evil = node("fatal", {device("mlx5_9 state=resume\n", "compute", "fatal",
                                      {condition("x\ny", "fatal", 0, "a b")})});
    EXPECT_EQ(observe(evil).problem, "mlx5_9_state_resume_ x_y a_b");
}

TEST(SlurmObserve, DegradedAndUnjudgedNodes)
{
    auto n = node("degraded", {device("mlx5_0", "storage", "fatal",
                                      {condition("port_down", "fatal", 1, "check_cable")})});
    EXPECT_EQ(observe(n).verdict, Verdict::Degraded);
    EXPECT_EQ(observe(n).problem, "mlx5_0/1 port_down check_cable");
    EXPECT_EQ(observe(node("unknown")).verdict, Verdict::Unknown);
    EXPECT_EQ(observe(node("healthy")).verdict, Verdict::Healthy);
}

TEST(SlurmDecide, FatalDrainsAnUndrainedNodeWithItsReason)
{
    auto d = decide(kFatal, "", std::nullopt, kNow, {});
    EXPECT_EQ(d.kind, Kind::Drain);
    EXPECT_EQ(d.reason, "nicd: mlx5_3/1 port_down check_cable");
    EXPECT_TRUE(d.node_bad);
    EXPECT_FALSE(d.healthy_since);
}

TEST(SlurmDecide, ANodeItDrainedKeepsTheReasonThatDrainedIt)
{
    EXPECT_EQ(decide(kFatal, "nicd: mlx5_3/1 port_down check_cable", {}, kNow, {}).kind,
              Kind::Nothing);
    // Another problem now: the reason still says what drained the node (no drain churn).
    auto d = decide(kFatal, "nicd: mlx5_0/1 port_down check_cable", {}, kNow, {});
    EXPECT_EQ(d.kind, Kind::Nothing);
    EXPECT_TRUE(d.node_bad);
}

TEST(SlurmObserve, ThePortsOwnConditionNamesItNotTheFamiliesThatFollow)
{
    // nicd's conditions of one port that went down, in the order the bus lists them.
    auto n = node("fatal", {device("mlx5_1", "compute", "fatal",
                                   {condition("counter.link_downed", "fatal", 1, "check_cable"),
                                    condition("netdev_down.ens2f0np0", "fatal", 1, "check_cable"),
                                    condition("port_down", "fatal", 1, "check_cable")})});
    n.devices[0].conditions[1].since_usec = 1;
    n.devices[0].conditions[2].since_usec = 2;
    EXPECT_EQ(observe(n).problem, "mlx5_1/1 port_down check_cable");
}

TEST(SlurmDecide, AnAdminsDrainIsNeverTouched)
{
    auto fatal = decide(kFatal, "admin: hw swap", {}, kNow, {});
    EXPECT_EQ(fatal.kind, Kind::Nothing);
    EXPECT_NE(fatal.message.find("admin: hw swap"), std::string::npos) << fatal.message;
    auto healthy = decide(kHealthy, "admin: hw swap", kNow - 100'000, kNow, {});
    EXPECT_EQ(healthy.kind, Kind::Nothing);
}

TEST(SlurmDecide, ResumesItsOwnDrainOnlyAfterHealthyForTheConfiguredTime)
{
    Settings s;
    s.resume_after_sec = 300;
    const std::string ours = "nicd: mlx5_3/1 port_down check_cable";
    auto first = decide(kHealthy, ours, std::nullopt, kNow, s);
    EXPECT_EQ(first.kind, Kind::Nothing);
    EXPECT_EQ(first.healthy_since, kNow); // the clock starts
    EXPECT_EQ(decide(kHealthy, ours, kNow, kNow + 299, s).kind, Kind::Nothing);
    auto later = decide(kHealthy, ours, kNow, kNow + 300, s);
    EXPECT_EQ(later.kind, Kind::Resume);
    EXPECT_EQ(later.healthy_since, kNow); // kept, not restarted
}

TEST(SlurmDecide, ResumeNeverKeepsTheNodeForAPerson)
{
    Settings s;
    s.resume_after_sec.reset();
    EXPECT_EQ(decide(kHealthy, "nicd: node x y", kNow - 1'000'000, kNow, s).kind, Kind::Nothing);
}

TEST(SlurmDecide, AnyBadVerdictRestartsTheHealthyClock)
{
    for (const auto& seen : {kFatal, kDegraded, kUnreachable, Observation{Verdict::Unknown, "x"}})
        EXPECT_FALSE(decide(seen, "", kNow - 10, kNow, {}).healthy_since);
    // A remembered time in the future (the clock went back) starts again now.
    EXPECT_EQ(decide(kHealthy, "", kNow + 50, kNow, {}).healthy_since, kNow);
}

TEST(SlurmDecide, DegradedOnlyLogsUnlessDrainOnDegraded)
{
    auto d = decide(kDegraded, "", {}, kNow, {});
    EXPECT_EQ(d.kind, Kind::Nothing);
    EXPECT_FALSE(d.node_bad);
    EXPECT_NE(d.message.find("mlx5_1/1 fec_ber_high"), std::string::npos) << d.message;
    Settings s;
    s.drain_on_degraded = true;
    auto drained = decide(kDegraded, "", {}, kNow, s);
    EXPECT_EQ(drained.kind, Kind::Drain);
    EXPECT_EQ(drained.reason, "nicd: mlx5_1/1 fec_ber_high replace_cable");
}

TEST(SlurmDecide, UnreachableNicdDoesNotDrainByDefaultAndSaysSo)
{
    auto d = decide(kUnreachable, "", {}, kNow, {});
    EXPECT_EQ(d.kind, Kind::Nothing);
    EXPECT_FALSE(d.node_bad);
    EXPECT_NE(d.message.find("cannot ask nicd: Failed to open bus"), std::string::npos);
    // Nor does it resume a node it drained: it cannot know nicd is healthy.
    EXPECT_EQ(decide(kUnreachable, "nicd: x y z", kNow - 100'000, kNow, {}).kind, Kind::Nothing);
    Settings s;
    s.drain_when_unreachable = true;
    auto drained = decide(kUnreachable, "", {}, kNow, s);
    EXPECT_EQ(drained.kind, Kind::Drain);
    EXPECT_EQ(drained.reason, "nicd: unreachable");
}
