// The health engine over simulated time on hand-built snapshots: link state, flaps, never-up
// ports, device disappearance, counter thresholds and the driver watchdog (the state that carries
// it across restarts: health_state_test.cpp; kernel lines and soft lockups:
// health_kernel_test.cpp).
#include "health/counter_rules.hpp"
#include "health/health_engine.hpp"
#include "support/health_fixture.hpp"

#include <gtest/gtest.h>

using namespace nicd;
using namespace nicd::health;
using namespace nicd::test;

TEST_F(HealthTest, PortThatWasUpGoingDownIsFatalAndRecovers)
{
    auto s = at(0, snap({device("mlx5_0", 4)}));
    EXPECT_EQ(portHealth(s), Health::Healthy);
    EXPECT_TRUE(s.health.conditions.empty());
    s = at(5, snap({device("mlx5_0", 1)}));
    ASSERT_TRUE(find(s, "port_down"));
    EXPECT_EQ(find(s, "port_down")->severity, ConditionSeverity::Fatal);
    EXPECT_NE(find(s, "port_down")->message.find("state DOWN, physical state Disabled"),
              std::string::npos);
    EXPECT_EQ(portHealth(s), Health::Fatal);
    EXPECT_EQ(s.health.devices.at("mlx5_0"), Health::Fatal);
    ASSERT_EQ(last_events_.size(), 1U);
    EXPECT_EQ(last_events_[0].kind, EventKind::Raised);
    auto raised_seq = last_events_[0].seq;
    s = at(10, snap({device("mlx5_0", 4)}));
    EXPECT_FALSE(find(s, "port_down"));
    EXPECT_EQ(portHealth(s), Health::Healthy);
    ASSERT_EQ(last_events_.size(), 1U);
    EXPECT_EQ(last_events_[0].kind, EventKind::Recovered);
    EXPECT_GT(last_events_[0].seq, raised_seq);
    EXPECT_EQ(engine_.eventsSince(0).size(), 2U);
    EXPECT_EQ(s.health.events_total.at("raised"), 1U);
}

TEST_F(HealthTest, NeverUpPortIsReportedButNotFatalAlone)
{
    auto s = at(0, snap({device("mlx5_0", 1), device("mlx5_1", 1)}));
    ASSERT_TRUE(find(s, "port_never_up"));
    EXPECT_EQ(find(s, "port_never_up")->severity, ConditionSeverity::Info);
    EXPECT_EQ(portHealth(s), Health::Healthy);
}

TEST_F(HealthTest, NeverUpPortIsFatalWhenAllPeersAreUp)
{
    auto s = at(0, snap({device("mlx5_0", 1), device("mlx5_1", 4), device("mlx5_2", 4),
                         device("mlx5_9", 1, "MT4125")})); // another model is no peer
    EXPECT_EQ(portHealth(s), Health::Fatal);
    EXPECT_NE(find(s, "port_never_up")->message.find("all 2 peer ports"), std::string::npos);
    EXPECT_EQ(portHealth(s, "mlx5_9"), Health::Healthy);
}

TEST_F(HealthTest, ExpectUpMakesANeverUpPortFatalAndExpectUpNoSilencesPeers)
{
    Config c;
    c.devices["mlx5_0"].expect_up = true;
    c.devices["mlx5_1"].expect_up = false;
    engine_.configure(c);
    auto s = at(0, snap({device("mlx5_0", 1), device("mlx5_1", 1), device("mlx5_2", 4)}));
    EXPECT_EQ(portHealth(s, "mlx5_0"), Health::Fatal);
    EXPECT_NE(find(s, "port_never_up")->message.find("ExpectUp=yes"), std::string::npos);
    EXPECT_EQ(portHealth(s, "mlx5_1"), Health::Healthy);
}

TEST_F(HealthTest, FlappingLinkIsItsOwnCondition)
{
    double t = 0;
    for (int i = 0; i < 3; ++i) {
        at(t += 5, snap({device("mlx5_0", 4)}));
        at(t += 5, snap({device("mlx5_0", 1)}));
    }
    auto s = at(t += 5, snap({device("mlx5_0", 4)}));
    ASSERT_TRUE(find(s, "link_flapping"));
    EXPECT_NE(find(s, "link_flapping")->message.find("3 times within 600 s"), std::string::npos);
    EXPECT_EQ(portHealth(s), Health::Degraded);
    s = at(t += 700, snap({device("mlx5_0", 4)}));
    EXPECT_FALSE(find(s, "link_flapping"));
}

TEST_F(HealthTest, DeviceThatDisappearsIsFatalUntilItReturns)
{
    at(0, snap({device("mlx5_0", 4), device("mlx5_1", 4)}));
    auto s = at(5, snap({device("mlx5_0", 4)}));
    ASSERT_TRUE(find(s, "device_missing", "mlx5_1"));
    EXPECT_EQ(s.health.devices.at("mlx5_1"), Health::Fatal);
    s = at(10, snap({device("mlx5_0", 4), device("mlx5_1", 4)}));
    EXPECT_FALSE(find(s, "device_missing", "mlx5_1"));
}

// A device IgnoreDevices= names from a reload on is nobody's concern: not missing, and what was
// said of it recovers; listed again later, it is a device like any other.
TEST_F(HealthTest, AnIgnoredDeviceIsNeitherMissingNorJudged)
{
    at(0, snap({device("mlx5_0", 4), device("mlx5_1", 4)}));
    auto s = at(5, snap({device("mlx5_0", 4), device("mlx5_1", 1)}));
    ASSERT_TRUE(find(s, "port_down", "mlx5_1"));
    auto ignored = snap({device("mlx5_0", 4)});
    ignored.inventory.ignored = {{"mlx5_1", "0000:3b:00.1", "mlx5_1"}};
    s = at(10, ignored);
    EXPECT_FALSE(find(s, "device_missing", "mlx5_1"));
    EXPECT_FALSE(find(s, "port_down", "mlx5_1"));
    EXPECT_FALSE(s.health.devices.contains("mlx5_1"));
    EXPECT_EQ(s.health.node, Health::Healthy);
    ASSERT_EQ(last_events_.size(), 1U);
    EXPECT_EQ(last_events_[0].kind, EventKind::Recovered);
    EXPECT_EQ(last_events_[0].message, "device ignored (IgnoreDevices=)");
    s = at(15, snap({device("mlx5_0", 4)})); // the setting removed, the device gone meanwhile
    EXPECT_FALSE(find(s, "device_missing", "mlx5_1")) << "ignoring forgot it";
    at(20, snap({device("mlx5_0", 4), device("mlx5_1", 4)}));
    s = at(25, snap({device("mlx5_0", 4)}));
    EXPECT_TRUE(find(s, "device_missing", "mlx5_1")) << "known again once read again";
}

TEST_F(HealthTest, AnyIncreaseOfAFatalCounterHoldsForTenMinutes)
{
    auto up = [] { return std::vector<Device>{device("mlx5_0", 4)}; };
    at(0, snap(up(), {{"mlx5_0", "rnr_nak_retry_err", 7}}));
    auto s = at(5, snap(up(), {{"mlx5_0", "rnr_nak_retry_err", 7}}));
    EXPECT_TRUE(s.health.conditions.empty()) << "the baseline itself is no alarm";
    s = at(10, snap(up(), {{"mlx5_0", "rnr_nak_retry_err", 8}}));
    ASSERT_TRUE(find(s, "counter.rnr_nak_retry_err"));
    EXPECT_EQ(find(s, "counter.rnr_nak_retry_err")->severity, ConditionSeverity::Fatal);
    s = at(300, snap(up(), {{"mlx5_0", "rnr_nak_retry_err", 8}}));
    EXPECT_TRUE(find(s, "counter.rnr_nak_retry_err"));
    s = at(620, snap(up(), {{"mlx5_0", "rnr_nak_retry_err", 8}}));
    EXPECT_FALSE(find(s, "counter.rnr_nak_retry_err"));
}

TEST_F(HealthTest, SymbolErrorsPerHourFollowTheIbtaBer)
{
    auto up = [] { return std::vector<Device>{device("mlx5_0", 4)}; };
    at(0, snap(up(), {{"mlx5_0", "symbol_error", 0}}));
    auto s = at(60, snap(up(), {{"mlx5_0", "symbol_error", 100}}));
    EXPECT_FALSE(find(s, "counter.symbol_error")) << "100 in a minute is within 120 per hour";
    s = at(120, snap(up(), {{"mlx5_0", "symbol_error", 500}}));
    ASSERT_TRUE(find(s, "counter.symbol_error"));
    EXPECT_EQ(find(s, "counter.symbol_error")->severity, ConditionSeverity::Degraded);
    EXPECT_NE(find(s, "counter.symbol_error")->message.find("more than 120 per hour"),
              std::string::npos);
    s = at(1800, snap(up(), {{"mlx5_0", "symbol_error", 500}}));
    EXPECT_TRUE(find(s, "counter.symbol_error")) << "still more than 120 within the last hour";
    s = at(3800, snap(up(), {{"mlx5_0", "symbol_error", 510}}));
    EXPECT_FALSE(find(s, "counter.symbol_error"));
}

TEST_F(HealthTest, PerSecondRatesAreScaledToThePollInterval)
{
    auto up = [] { return std::vector<Device>{device("mlx5_0", 4)}; };
    at(0, snap(up(), {{"mlx5_0", "out_of_buffer", 0}}));
    auto s = at(5, snap(up(), {{"mlx5_0", "out_of_buffer", 450}})); // 90/s, limit 100/s
    EXPECT_FALSE(find(s, "counter.out_of_buffer"));
    s = at(10, snap(up(), {{"mlx5_0", "out_of_buffer", 1100}})); // 130/s
    EXPECT_TRUE(find(s, "counter.out_of_buffer"));
    s = at(15, snap(up(), {{"mlx5_0", "out_of_buffer", 1150}})); // 10/s: back under
    EXPECT_FALSE(find(s, "counter.out_of_buffer"));
}

TEST_F(HealthTest, WrapSaturationAndResetNeverRaiseFalseAlarms)
{
    auto up = [] { return std::vector<Device>{device("mlx5_0", 4)}; };
    const uint64_t top = 0xffffffffULL;
    at(0, snap(up(), {{"mlx5_0", "out_of_buffer", top - 10}, {"mlx5_0", "symbol_error", top}}));
    auto s = at(5, snap(up(), {{"mlx5_0", "out_of_buffer", 20}, {"mlx5_0", "symbol_error", top}}));
    EXPECT_TRUE(s.health.conditions.empty()) << "a 32-bit wrap by 31 and a saturated counter";
    s = at(10, snap(up(), {{"mlx5_0", "out_of_buffer", 3}, {"mlx5_0", "symbol_error", top}}));
    EXPECT_TRUE(s.health.conditions.empty()) << "a reset (driver reload) is a new baseline";
}

TEST_F(HealthTest, AdminClearOfABreachedCounterRecovers)
{
    auto up = [] { return std::vector<Device>{device("mlx5_0", 4)}; };
    at(0, snap(up(), {{"mlx5_0", "symbol_error", 0}}));
    auto s = at(5, snap(up(), {{"mlx5_0", "symbol_error", 1000}}));
    ASSERT_TRUE(find(s, "counter.symbol_error"));
    s = at(10, snap(up(), {{"mlx5_0", "symbol_error", 0}}));
    EXPECT_FALSE(find(s, "counter.symbol_error"));
    ASSERT_EQ(last_events_.size(), 1U);
    EXPECT_EQ(last_events_[0].kind, EventKind::Recovered);
    EXPECT_NE(last_events_[0].message.find("counter reset"), std::string::npos);
}

TEST_F(HealthTest, ConfigurationOverridesAndDisablesRules)
{
    Config c;
    c.counter_rules["symbol_error"].rate = RateLimit{10, 3600};
    c.counter_rules["symbol_error"].severity = RuleSeverity::Fatal;
    c.counter_rules["symbol_error/mlx5_1"].enable = false;
    engine_.configure(c);
    auto devs = [] { return std::vector<Device>{device("mlx5_0", 4), device("mlx5_1", 4)}; };
    at(0, snap(devs(), {{"mlx5_0", "symbol_error", 0}, {"mlx5_1", "symbol_error", 0}}));
    auto s = at(5, snap(devs(), {{"mlx5_0", "symbol_error", 11}, {"mlx5_1", "symbol_error", 999}}));
    ASSERT_TRUE(find(s, "counter.symbol_error"));
    EXPECT_EQ(find(s, "counter.symbol_error")->severity, ConditionSeverity::Fatal);
    EXPECT_FALSE(find(s, "counter.symbol_error", "mlx5_1"));
}

TEST_F(HealthTest, OperatorClearDropsACondition)
{
    at(0, snap({device("mlx5_0", 4)}));
    at(5, snap({device("mlx5_0", 1)}));
    EXPECT_TRUE(engine_.clear("mlx5_0", "port_down", 1700000010));
    EXPECT_FALSE(engine_.clear("mlx5_0", "port_down", 1700000010));
    EXPECT_EQ(engine_.eventsSince(0).back().kind, EventKind::Cleared);
}

TEST_F(HealthTest, DriverUnresponsiveOnAMissedDeadlineOrRepeatedTotalFailure)
{
    auto base = [] {
        Snapshot s;
        s.inventory.devices = {device("mlx5_0", 4)};
        s.samples.push_back({});
        s.samples.back().ibdev = "mlx5_0";
        return s;
    };
    auto late = base();
    late.samples[0].unresponsive = "reading counters did not return within 2000 ms";
    auto s = at(0, late);
    ASSERT_TRUE(find(s, "driver_unresponsive"));
    EXPECT_EQ(find(s, "driver_unresponsive")->severity, ConditionSeverity::Fatal);
    s = at(5, base());
    EXPECT_FALSE(find(s, "driver_unresponsive"));
    auto failing = base();
    failing.samples[0].errors.push_back({"mlx5_0", 1, "x", "Input/output error"});
    at(10, failing);
    s = at(15, failing);
    EXPECT_FALSE(find(s, "driver_unresponsive")) << "two failed cycles are not yet three";
    s = at(20, failing);
    ASSERT_TRUE(find(s, "driver_unresponsive"));
    EXPECT_NE(find(s, "driver_unresponsive")->message.find("every read failed for 3 cycles"),
              std::string::npos);
}

TEST_F(HealthTest, PfcPauseStormOnAnyPriority)
{
    auto up = [] { return std::vector<Device>{device("mlx5_0", 4)}; };
    auto pause = [&](double t, uint64_t v) {
        auto s = snap(up());
        s.samples.push_back({});
        s.samples.back().ibdev = "mlx5_0";
        test::addMlx5Samples(s.samples.back(), {{"ethtool", 1, "ens1f0np0", "rx_prio3_pause", v,
                                                 SampleKind::Counter}});
        return at(t, s);
    };
    pause(0, 0);
    auto s = pause(5, 10000); // 2,000/s: busy, not a storm
    EXPECT_FALSE(find(s, "counter.rx_prio3_pause.ens1f0np0"));
    s = pause(65, 10000 + 60 * 8000); // 8,000/s for a minute
    ASSERT_TRUE(find(s, "counter.rx_prio3_pause.ens1f0np0"));
    EXPECT_NE(
        find(s, "counter.rx_prio3_pause.ens1f0np0")->message.find("more than 300000 per minute"),
        std::string::npos)
        << find(s, "counter.rx_prio3_pause.ens1f0np0")->message;
    EXPECT_TRUE(
        ruleFor("tx_prio0_pause", test::mlx5Meaning("tx_prio0_pause").meaning, "mlx5_0", Config{}));
    EXPECT_FALSE(ruleFor("rx_prio3_pause_transition",
                         test::mlx5Meaning("rx_prio3_pause_transition").meaning, "mlx5_0",
                         Config{}));
}

namespace {
Device ibDevice(const std::string& name, int state, int phys, const std::string& board = "MT_1")
{
    static const char* states[] = {"NOP", "DOWN", "INIT", "ARMED", "ACTIVE"};
    static const char* phys_names[] = {"", "Sleep", "Polling", "Disabled", "Training", "LinkUp"};
    auto d = test::device(name, state);
    d.board_id = board;
    d.ports[0].state_name = states[state];
    d.ports[0].phys_state = phys;
    d.ports[0].phys_state_name = phys_names[phys];
    d.ports[0].link_layer = "InfiniBand";
    return d;
}
} // namespace

TEST_F(HealthTest, TrainedButInactivePortIsDegradedNotFatal)
{
    auto s = at(0, snap({ibDevice("mlx5_0", 2, 5)})); // INIT, LinkUp: no subnet manager yet
    ASSERT_TRUE(find(s, "port_not_active"));
    EXPECT_EQ(portHealth(s), Health::Degraded);
    EXPECT_FALSE(find(s, "port_never_up"));
    s = at(5, snap({ibDevice("mlx5_0", 4, 5)}));
    EXPECT_FALSE(find(s, "port_not_active"));
    EXPECT_EQ(portHealth(s), Health::Healthy);
}

TEST_F(HealthTest, APortThatWasUpPollingIsFatal)
{
    at(0, snap({ibDevice("mlx5_0", 4, 5)}));
    auto s = at(5, snap({ibDevice("mlx5_0", 1, 2)})); // DOWN, Polling: cable pulled
    ASSERT_TRUE(find(s, "port_down"));
    EXPECT_EQ(portHealth(s), Health::Fatal);
    EXPECT_NE(find(s, "port_down")->message.find("Polling"), std::string::npos);
}

TEST_F(HealthTest, AnUnreadablePortStateIsNoLinkEvent)
{
    at(0, snap({ibDevice("mlx5_0", 4, 5)}));
    at(5, snap({ibDevice("mlx5_0", 1, 3)}));
    auto unreadable = ibDevice("mlx5_0", 1, 3);
    unreadable.ports[0].state.reset();
    unreadable.ports[0].phys_state.reset();
    auto s = at(10, snap({unreadable}));
    EXPECT_TRUE(last_events_.empty());
    EXPECT_TRUE(find(s, "port_down")) << "kept, not recovered";
    at(15, snap({ibDevice("mlx5_0", 4, 5)}));
    at(20, snap({unreadable}));
    EXPECT_TRUE(last_events_.empty()) << "and no down is invented either";
}

TEST_F(HealthTest, NetdevDownWhileTheIbPortIsStillActiveIsFatalAndAFlap)
{
    auto dev = device("mlx5_0", 4);
    dev.ports[0].netdevs = {"ens1f0np0"};
    auto with = [&](const std::string& operstate) {
        auto s = snap({dev});
        s.netdevs["ens1f0np0"] = {"ens1f0np0", operstate, operstate == "up", 5};
        return s;
    };
    auto s = at(0, with("down"));
    EXPECT_FALSE(find(s, "netdev_down.ens1f0np0")) << "never seen up: not a change";
    double t = 0;
    for (int i = 0; i < 3; ++i) {
        at(t += 1, with("up"));
        s = at(t += 1, with("down"));
        ASSERT_TRUE(find(s, "netdev_down.ens1f0np0"));
        EXPECT_EQ(find(s, "netdev_down.ens1f0np0")->severity, ConditionSeverity::Fatal);
        EXPECT_NE(find(s, "netdev_down.ens1f0np0")->message.find("no carrier"), std::string::npos);
    }
    EXPECT_TRUE(find(s, "link_flapping")) << "three downs within the window";
    s = at(t += 1, with("up"));
    EXPECT_FALSE(find(s, "netdev_down.ens1f0np0"));
}

TEST_F(HealthTest, PeersAreTheSameBoardAndRole)
{
    // mlx5_1 is up, but it is another board (an OCP NIC next to the PCIe cards): no peer.
    auto s = at(0, snap({ibDevice("mlx5_0", 1, 2, "MT_A"), ibDevice("mlx5_1", 4, 5, "MT_B")}));
    EXPECT_EQ(find(s, "port_never_up")->severity, ConditionSeverity::Info);
    s = at(5, snap({ibDevice("mlx5_0", 1, 2, "MT_A"), ibDevice("mlx5_1", 4, 5, "MT_B"),
                    ibDevice("mlx5_2", 4, 5, "MT_A")}));
    EXPECT_EQ(find(s, "port_never_up")->severity, ConditionSeverity::Fatal);
    ASSERT_FALSE(last_events_.empty());
    EXPECT_EQ(last_events_.back().severity, ConditionSeverity::Fatal) << "escalation is an event";
}

TEST_F(HealthTest, VirtualFunctionsComingAndGoingAreNotMissingDevices)
{
    auto vf = device("mlx5_5", 4);
    vf.function = DeviceFunction::VirtualFunction;
    at(0, snap({device("mlx5_0", 4), vf}));
    auto s = at(5, snap({device("mlx5_0", 4)}));
    EXPECT_FALSE(find(s, "device_missing", "mlx5_5"));
}

TEST_F(HealthTest, AMissingDeviceKeepsItsPortConditions)
{
    at(0, snap({device("mlx5_0", 4), device("mlx5_1", 4)}));
    at(5, snap({device("mlx5_0", 4), device("mlx5_1", 1)}));
    auto s = at(10, snap({device("mlx5_0", 4)}));
    EXPECT_TRUE(find(s, "device_missing", "mlx5_1"));
    EXPECT_TRUE(find(s, "port_down", "mlx5_1"));
    EXPECT_EQ(s.health.devices.at("mlx5_1"), Health::Fatal);
}

TEST_F(HealthTest, EveryConditionSaysWhereItCameFrom)
{
    at(0, snap({device("mlx5_0", 4), device("mlx5_1", 4)}, {{"mlx5_0", "rnr_nak_retry_err", 0}}));
    auto s = at(5, snap({device("mlx5_0", 1)}, {{"mlx5_0", "rnr_nak_retry_err", 1}}));
    engine_.kernelLine(kernelMatch("mlx5.cmd_timeout", plugin::v1::Severity::Fatal, "0004:01:00.0"),
                       kernelInventory(), 6, 1700000006);
    engine_.report(s);
    EXPECT_EQ(find(s, "port_down")->source, ConditionSource::Link);
    EXPECT_EQ(find(s, "counter.rnr_nak_retry_err")->source, ConditionSource::Counter);
    EXPECT_EQ(find(s, "device_missing", "mlx5_1")->source, ConditionSource::Device);
    EXPECT_EQ(find(s, "kernel.mlx5.cmd_timeout")->source, ConditionSource::Kernel);
}
