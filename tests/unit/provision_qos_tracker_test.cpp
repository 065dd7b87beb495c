// What the daemon keeps of provisioning rounds: statuses per port, drift, writes and errors
// counted, the last apply, and all of it under a renamed device's new name.
#include "provision/qos_tracker.hpp"

#include <gtest/gtest.h>

using namespace nicd;
using namespace nicd::provision;

namespace {

PortOutcome outcome(std::string dev, bool compliant, bool changed, bool applied = true)
{
    PortOutcome o;
    o.plan.device = std::move(dev);
    o.plan.port = 1;
    o.plan.managed = true;
    o.attempted = true;
    o.applied = applied;
    o.report.settings = {{"pfc", "3", compliant ? "3" : "4", compliant, changed, ""},
                         {"trust", "dscp", "dscp", true, false, ""}};
    return o;
}

PortOutcome skipped(std::string dev, std::string reason)
{
    PortOutcome o;
    o.plan.device = std::move(dev);
    o.plan.port = 1;
    o.plan.reason = std::move(reason);
    return o;
}

const PortQosState& port(const QosTracker& t, const std::string& dev)
{
    return t.summary().ports.at({dev, 1});
}

} // namespace

TEST(QosTracker, StatusesSayCompliantNoncompliantSkippedOrWaiting)
{
    QosTracker t;
    Round r{RoundKind::Verify,
            {outcome("mlx5_0", true, false, false), outcome("mlx5_1", false, false, false),
             skipped("mlx5_5", "virtual function"), skipped("mlx5_6", "waiting: link is DOWN")}};
    EXPECT_FALSE(t.record(r, 100));
    EXPECT_EQ(port(t, "mlx5_0").status, "compliant");
    EXPECT_EQ(port(t, "mlx5_1").status, "noncompliant");
    EXPECT_EQ(port(t, "mlx5_5").status, "skipped: virtual function");
    EXPECT_FALSE(port(t, "mlx5_5").managed);
    EXPECT_EQ(port(t, "mlx5_6").status, "waiting: link is DOWN");
    EXPECT_EQ(t.summary().last_apply_seconds, 0) << "a verify round applies nothing";
}

TEST(QosTracker, DriftIsACompliantSettingFoundDifferent)
{
    QosTracker t;
    t.record({RoundKind::Verify, {outcome("mlx5_0", true, false, false)}}, 100);
    EXPECT_TRUE(t.record({RoundKind::Verify, {outcome("mlx5_0", false, false, false)}}, 200));
    // Never compliant is not drift (nothing was taken away).
    QosTracker fresh;
    fresh.record({RoundKind::Verify, {outcome("mlx5_0", false, false, false)}}, 100);
    EXPECT_FALSE(fresh.record({RoundKind::Verify, {outcome("mlx5_0", false, false, false)}}, 200));
}

TEST(QosTracker, WritesAreCountedOnlyWhenApplied)
{
    QosTracker t;
    t.record({RoundKind::DryRun, {outcome("mlx5_0", false, true)}}, 100);
    EXPECT_TRUE(t.summary().changes_total.empty()) << "a dry run writes nothing";
    EXPECT_EQ(t.summary().last_apply_result, "dry-run");
    t.record({RoundKind::Apply, {outcome("mlx5_0", true, true)}}, 200);
    EXPECT_EQ(t.summary().changes_total.at({"mlx5_0", 1, "pfc"}), 1U);
    EXPECT_EQ(t.summary().last_apply_seconds, 200);
    EXPECT_EQ(t.summary().last_apply_result, "ok");
}

TEST(QosTracker, AFailedPortIsAnErrorAndCounted)
{
    QosTracker t;
    auto o = outcome("mlx5_0", false, false);
    o.report.settings.clear();
    o.error = "netdev ens1f0np0: DCB not supported by driver (EOPNOTSUPP)";
    t.record({RoundKind::Apply, {o}}, 100);
    EXPECT_EQ(port(t, "mlx5_0").status,
              "error: netdev ens1f0np0: DCB not supported by driver (EOPNOTSUPP)");
    EXPECT_EQ(t.summary().errors_total.at({"mlx5_0", 1, "port"}), 1U);
    EXPECT_EQ(t.summary().last_apply_result, "failed: 1 port(s)");
}

TEST(QosTracker, AGoneDeviceIsForgotten)
{
    QosTracker t;
    t.record({RoundKind::Verify, {outcome("mlx5_0", true, false, false)}}, 100);
    Inventory inv;
    t.forgetMissing(inv);
    EXPECT_TRUE(t.summary().ports.empty());
}

// udev's rdma_rename: the port's last outcome and the writes counted follow the device's new name
// (the counter goes on, the old name's series goes), and drift is still judged against it.
TEST(QosTracker, ARenamedDeviceKeepsItsPortsAndCounts)
{
    QosTracker t;
    t.record({RoundKind::Apply, {outcome("mlx5_0", true, true)}}, 100);
    t.rename("mlx5_0", "rocep26s0f0");
    EXPECT_FALSE(t.summary().ports.contains({"mlx5_0", 1}));
    EXPECT_EQ(port(t, "rocep26s0f0").status, "compliant");
    EXPECT_EQ(t.summary().changes_total.at({"rocep26s0f0", 1, "pfc"}), 1U);
    EXPECT_EQ(t.summary().changes_total.size(), 1U);
    EXPECT_TRUE(t.record({RoundKind::Verify, {outcome("rocep26s0f0", false, false, false)}}, 200))
        << "compliant before the rename, not now: drift";
}
