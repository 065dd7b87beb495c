// The health engine and kernel log lines: mapping a line to its device by PCI address, upstream
// port or netdev, repeats escalating to fatal, holding until cleared or KernelHoldSec, multi-line
// reports (soft lockups the mlx5 plugin confirms by its poll frame) on the devices of the plugin
// that recognised them, and an operator's clear.
#include "health/counter_rules.hpp"
#include "health/health_engine.hpp"
#include "kernel_log/kernel_watch.hpp"
#include "loop/clock.hpp"
#include "support/health_fixture.hpp"
#include "support/kernel_records.hpp"
#include "support/mlx5_reports.hpp"

#include <gtest/gtest.h>

using namespace nicd;
using namespace nicd::health;
using namespace nicd::test;

TEST_F(HealthTest, KernelErrorsMapToDevicesByPciAddressUpstreamPortOrNetdev)
{
    auto inv = kernelInventory();
    using S = plugin::v1::Severity;
    auto ev = engine_.kernelLine(kernelMatch("mlx5.cmd_timeout", S::Fatal, "0004:01:00.0"), inv, 1,
                                 1700000001);
    ASSERT_EQ(ev.size(), 1U);
    EXPECT_EQ(ev[0].device, "mlx5_0");
    EXPECT_EQ(ev[0].severity, ConditionSeverity::Fatal);
    ev = engine_.kernelLine(kernelMatch("pcie.dpc_containment", S::Fatal, "0004:00:00.0"), inv, 2,
                            1700000002);
    ASSERT_EQ(ev.size(), 1U);
    EXPECT_EQ(ev[0].device, "mlx5_0") << "the upstream port's PF, not the VF";
    ev = engine_.kernelLine(kernelMatch("netdev.tx_watchdog", S::NonFatal, "", "ens1f0np0"), inv, 3,
                            1700000003);
    ASSERT_EQ(ev.size(), 1U);
    EXPECT_EQ(ev[0].severity, ConditionSeverity::Degraded);
    ev = engine_.kernelLine(kernelMatch("mlx5.cmd_timeout", S::Fatal, "0000:99:00.0"), inv, 4,
                            1700000004);
    EXPECT_TRUE(ev.empty());
    Snapshot s;
    s.inventory = inv;
    engine_.report(s);
    EXPECT_EQ(s.health.devices.at("mlx5_0"), Health::Fatal);
    EXPECT_EQ((s.health.kernel_errors.at({"mlx5_0", "mlx5.cmd_timeout"})), 1U);
    EXPECT_EQ(s.health.kernel_errors_unmapped, 1U);
}

TEST_F(HealthTest, RepeatedNonFatalKernelErrorEscalatesToFatal)
{
    auto inv = kernelInventory();
    auto m = kernelMatch("mlx5.access_reg_failed", plugin::v1::Severity::NonFatal, "0004:01:00.0");
    engine_.kernelLine(m, inv, 10, 1700000010);
    engine_.kernelLine(m, inv, 20, 1700000020);
    Snapshot s;
    s.inventory = inv;
    engine_.report(s);
    EXPECT_EQ(s.health.devices.at("mlx5_0"), Health::Degraded);
    auto ev = engine_.kernelLine(m, inv, 30, 1700000030);
    ASSERT_EQ(ev.size(), 1U);
    EXPECT_EQ(ev[0].severity, ConditionSeverity::Fatal);
    EXPECT_NE(ev[0].message.find("3 times within 3600 s"), std::string::npos);
    // It holds as fatal until cleared (KernelHoldSec=0); after a clear, a lone hit long after
    // the window is degraded again.
    EXPECT_TRUE(engine_.clear("mlx5_0", "kernel.mlx5.access_reg_failed", 1700000040));
    engine_.kernelLine(m, inv, 10000, 1700010000);
    engine_.report(s);
    EXPECT_EQ(s.health.devices.at("mlx5_0"), Health::Degraded);
}

TEST_F(HealthTest, KernelConditionsHoldUntilClearedOrForKernelHoldSec)
{
    auto inv = kernelInventory();
    auto m = kernelMatch("mlx5.cmd_timeout", plugin::v1::Severity::Fatal, "0004:01:00.0");
    engine_.kernelLine(m, inv, 1, 1700000001);
    auto s = at(100000, snap({inv.devices[0]}));
    EXPECT_TRUE(find(s, "kernel.mlx5.cmd_timeout")) << "no natural recovery by default";
    Config c;
    c.health.kernel_hold_sec = 60;
    engine_.configure(c);
    engine_.clear("mlx5_0", "kernel.mlx5.cmd_timeout", 1700100000);
    engine_.kernelLine(m, inv, 100010, 1700100010);
    s = at(100030, snap({inv.devices[0]}));
    EXPECT_TRUE(find(s, "kernel.mlx5.cmd_timeout"));
    s = at(100080, snap({inv.devices[0]}));
    EXPECT_FALSE(find(s, "kernel.mlx5.cmd_timeout"));
}

TEST(SoftLockup, ConfirmedByAnMlx5PollFrameWithinTheWindow)
{
    test::Mlx5Reports d;
    EXPECT_FALSE(
        d.feed("watchdog: BUG: soft lockup - CPU#94 stuck for 226906s! [ksoftirqd/94:485]"));
    EXPECT_FALSE(d.feed("RIP: 0010:native_queued_spin_lock_slowpath+0x12/0x20"));
    EXPECT_FALSE(d.feed(" ? mlx5e_napi_poll+0x1a2/0x6a0 [mlx5_core]")) << "speculative frame";
    auto hit = d.feed(" mlx5e_poll_ico_cq+0x8b/0x1a0 [mlx5_core]");
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->code, "driver_soft_lockup");
    EXPECT_EQ(hit->action_code, "reboot_node");
    EXPECT_NE(hit->message.find("CPU#94 stuck for 226906s"), std::string::npos);
    EXPECT_NE(hit->message.find("(mlx5e_poll_ico_cq)"), std::string::npos);
    EXPECT_FALSE(d.feed(" mlx5e_napi_poll+0x1a2/0x6a0 [mlx5_core]")) << "one event per report";
}

TEST(SoftLockup, FramesOutsideTheWindowOrWithoutAHeaderDoNotCount)
{
    test::Mlx5Reports d;
    EXPECT_FALSE(d.feed(" mlx5e_napi_poll+0x1a2/0x6a0 [mlx5_core]"));
    d.feed("BUG: soft lockup - CPU#3 stuck for 23s! [kworker:1]");
    for (int i = 0; i < 150; ++i)
        d.feed(" net_rx_action+0x11/0x300");
    EXPECT_FALSE(d.feed(" mlx5e_napi_poll+0x1a2/0x6a0 [mlx5_core]"));
}

TEST(SoftLockup, ALockupElsewhereIsNoPluginsAndAnotherKindOfReportIsNotALockup)
{
    test::Mlx5Reports d;
    d.feed("watchdog: BUG: soft lockup - CPU#3 stuck for 23s! [java:991]");
    for (const char* l : {"RIP: 0010:ext4_writepages+0x1f/0x2a0", " ? mlx5e_napi_poll+0x1f/0x2a0",
                          " mlx5e_napi_poll_x+0x1f/0x2a0 [mlx5_core]", " net_rx_action+0x11/0x300"})
        EXPECT_FALSE(d.feed(l)) << l;
    // The window hands the plugin the report's kind: a frame in another kind of report (none
    // opened here) is not a soft lockup.
    plugin::v1::KernelLineMatch m;
    const std::vector<std::string> lines{" mlx5e_napi_poll+0x1f/0x2a0 [mlx5_core]"};
    EXPECT_FALSE(plugin::sdk::classifySoftLockup({"hung_task", "INFO: task x blocked", lines},
                                                 mlx5::kPollLoop, m));
    EXPECT_TRUE(plugin::sdk::classifySoftLockup({"soft_lockup", "BUG: soft lockup", lines},
                                                mlx5::kPollLoop, m));
}

TEST_F(HealthTest, AReportIsFatalForEveryDeviceOfThePluginThatRecognisedIt)
{
    auto inv = kernelInventory();
    auto other = device("bnxt_re0", 4);
    other.driver = "bnxt_en";
    other.plugin = "bnxt";
    inv.devices.push_back(other);
    auto unmanaged = device("mlx5_9", 4);
    inv.devices.push_back(unmanaged); // mlx5_core, but no plugin manages it
    auto ev = engine_.kernelReport(mlx5SoftLockup("BUG: soft lockup - CPU#3 stuck for 23s!"), inv,
                                   1, 1700000000);
    ASSERT_EQ(ev.size(), 1U) << "the VF shares its PF's driver state; other plugins' devices "
                                "and unmanaged ones are not the plugin's to judge";
    EXPECT_EQ(ev[0].device, "mlx5_0");
    EXPECT_EQ(ev[0].code, "kernel.driver_soft_lockup");
    EXPECT_EQ(ev[0].severity, ConditionSeverity::Fatal);
    EXPECT_EQ(ev[0].action, Action::RebootNode);
    // The same report recognised by another plugin lands on that plugin's device only.
    auto theirs = mlx5SoftLockup("BUG: soft lockup - CPU#4 stuck for 23s!");
    theirs.plugin = "bnxt";
    theirs.match.code = "bnxt.driver_soft_lockup";
    ev = engine_.kernelReport(theirs, inv, 2, 1700000002);
    ASSERT_EQ(ev.size(), 1U);
    EXPECT_EQ(ev[0].device, "bnxt_re0");
}

TEST_F(HealthTest, AnEscalatedKernelConditionStaysFatalUntilCleared)
{
    auto inv = kernelInventory();
    auto m = kernelMatch("netdev.tx_watchdog", plugin::v1::Severity::NonFatal, "", "ens1f0np0");
    for (double t : {10.0, 20.0, 30.0})
        engine_.kernelLine(m, inv, t, 1700000000 + t);
    auto ev = engine_.kernelLine(m, inv, 9000, 1700009000); // alone in its window
    EXPECT_TRUE(ev.empty()) << "no de-escalation event";
    Snapshot s;
    s.inventory = inv;
    engine_.report(s);
    EXPECT_EQ(s.health.devices.at("mlx5_0"), Health::Fatal);
    EXPECT_EQ((s.health.kernel_errors.at({"mlx5_0", "netdev.tx_watchdog"})), 4U);
}

TEST_F(HealthTest, OperatorClearForgetsTheRepeatHistory)
{
    auto inv = kernelInventory();
    auto m = kernelMatch("mlx5.tx_timeout", plugin::v1::Severity::NonFatal, "0004:01:00.0");
    engine_.kernelLine(m, inv, 10, 1700000010);
    engine_.kernelLine(m, inv, 20, 1700000020);
    EXPECT_TRUE(engine_.clear("mlx5_0", "kernel.mlx5.tx_timeout", 1700000025));
    auto ev = engine_.kernelLine(m, inv, 30, 1700000030);
    ASSERT_EQ(ev.size(), 1U);
    EXPECT_EQ(ev[0].severity, ConditionSeverity::Degraded) << "a fresh start after the clear";
}

TEST_F(HealthTest, MultiLineSoftLockupReportEndToEnd)
{
    // The report of NVSentinel #1334 (as quoted in reference/nic-health.md §3.2), with typical
    // neighbouring lines; fed in order, as the journal delivers them.
    const std::vector<std::string> report{
        "watchdog: BUG: soft lockup - CPU#94 stuck for 226906s! [swapper/94:0]",
        "Modules linked in: mlx5_ib ib_uverbs mlx5_core mlxfw",
        "CPU: 94 PID: 0 Comm: swapper/94 Tainted: G           OEL",
        "RIP: 0010:mlx5e_poll_ico_cq+0x8b/0x1a0 [mlx5_core]",
        " mlx5e_napi_poll+0x1a2/0x6a0 [mlx5_core]",
        " net_rx_action+0x146/0x3e0",
    };
    test::Mlx5Reports reports;
    std::vector<KernelReportFinding> found;
    for (const auto& l : report)
        if (auto hit = reports.feed(l))
            found.push_back({"mlx5", *hit});
    ASSERT_EQ(found.size(), 1U);
    Config c;
    c.health.kernel_hold_sec = 600;
    engine_.configure(c);
    auto inv = kernelInventory();
    auto ev = engine_.kernelReport(found[0], inv, 100, 1700000100);
    ASSERT_EQ(ev.size(), 1U);
    EXPECT_EQ(ev[0].device, "mlx5_0");
    EXPECT_NE(ev[0].message.find("CPU#94 stuck for 226906s"), std::string::npos);
    auto s = at(200, snap({inv.devices[0]}));
    EXPECT_EQ(s.health.devices.at("mlx5_0"), Health::Fatal);
    s = at(701, snap({inv.devices[0]}));
    EXPECT_FALSE(find(s, "kernel.driver_soft_lockup")) << "KernelHoldSec ran out";
}

// What the daemon found in the journal is held for KernelHoldSec like any kernel condition, soft
// lockups too (they were held for the rest of the boot whatever KernelHoldSec said).
TEST_F(HealthTest, FindingsFromTheJournalAreHeldForKernelHoldSec)
{
    Config c;
    c.health.kernel_hold_sec = 60;
    engine_.configure(c);
    auto inv = kernelInventory();
    KernelFindings f;
    f.reports.push_back(mlx5SoftLockup("BUG: soft lockup - CPU#3 stuck for 23s!"));
    f.matches.push_back(
        kernelMatch("mlx5.cmd_timeout", plugin::v1::Severity::Fatal, "0004:01:00.0"));
    const double now = loop::monotonicSeconds();
    engine_.kernelFindings(f, inv, loop::monotonicSeconds(), loop::realtimeSeconds());
    auto s = at(now + 30, snap({inv.devices[0]}));
    EXPECT_TRUE(find(s, "kernel.driver_soft_lockup"));
    EXPECT_TRUE(find(s, "kernel.mlx5.cmd_timeout"));
    s = at(now + 61, snap({inv.devices[0]}));
    EXPECT_FALSE(find(s, "kernel.driver_soft_lockup")) << "KernelHoldSec=60 ran out";
    EXPECT_FALSE(find(s, "kernel.mlx5.cmd_timeout"));
}

TEST_F(HealthTest, AReportWithoutADeviceOfItsPluginIsOnlyCounted)
{
    Inventory inv;
    auto ev =
        engine_.kernelReport(mlx5SoftLockup("BUG: soft lockup - CPU#1 stuck for 30s!"), inv, 1, 2);
    EXPECT_TRUE(ev.empty());
    Snapshot s;
    engine_.report(s);
    EXPECT_EQ(s.health.kernel_errors_unmapped, 1U);
}

// The state of one run, restored in the next (a restart, or the next `nicd --once`).
