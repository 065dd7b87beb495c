// The congestion verdict: every boundary of judgeCongestion, and the sliding window of
// CongestionRules (a window not yet full judged on what it covers, older readings leaving it,
// counter resets, the window carried across restarts through the state file).
#include "health/congestion_rules.hpp"
#include "health/congestion_verdict.hpp"
#include "support/health_fixture.hpp"

#include <gtest/gtest.h>

using namespace nicd;
using namespace nicd::health;

namespace {

CongestionState stateOf(CongestionDelta d, CongestionLimits l = {})
{
    return judgeCongestion(d, l).state;
}

CongestionDelta seconds(double s)
{
    CongestionDelta d;
    d.seconds = s;
    return d;
}

} // namespace

TEST(CongestionVerdict, EveryBoundary)
{
    EXPECT_EQ(stateOf(seconds(1.9)), CongestionState::Unknown) << "no window of 2 s yet";
    EXPECT_EQ(stateOf(seconds(2)), CongestionState::Idle);

    auto d = seconds(10);
    d.rx_pause_us = 0.0099 * 10e6; // just under 1 %
    EXPECT_EQ(stateOf(d), CongestionState::Idle);
    d.rx_pause_us = 0.01 * 10e6;
    EXPECT_EQ(stateOf(d), CongestionState::PfcOnly) << "1 % paused, no ECN";
    d.cnp_handled = 1;
    EXPECT_EQ(stateOf(d), CongestionState::EcnWorking) << "a CNP: DCQCN is reacting";
    d.tx_pause_us = 0.5 * 10e6;
    EXPECT_EQ(stateOf(d), CongestionState::PauseStorm) << "we paused the peer half the time";
    d.tx_pause_us = 0.4999 * 10e6;
    EXPECT_EQ(stateOf(d), CongestionState::EcnWorking);
    d.storm_warnings = 1;
    EXPECT_EQ(stateOf(d), CongestionState::PauseStorm) << "the driver's own detection";
    EXPECT_FALSE(judgeCongestion(d, {}).fatal);
    d.out_of_sequence = 1;
    EXPECT_EQ(stateOf(d), CongestionState::Lossy) << "loss outranks a storm warning";
    d.storm_errors = 1;
    EXPECT_EQ(stateOf(d), CongestionState::PauseStorm) << "the driver's storm error is the cause";
    EXPECT_TRUE(judgeCongestion(d, {}).fatal) << "past the critical watermark";
    d.storm_errors = 0;
    d.storm_warnings = 0;
    d.out_of_sequence = 0;
    d.lossless_drops = 1;
    EXPECT_EQ(stateOf(d), CongestionState::Lossy);
    d.lossless_drops = 0;
    d.retransmissions = 1;
    EXPECT_EQ(stateOf(d), CongestionState::Lossy) << "a retransmission: loss the peer saw";

    auto busy = seconds(60);
    busy.ecn_marked = 3e6;
    busy.cnp_sent = 1e6;
    EXPECT_EQ(stateOf(busy), CongestionState::EcnWorking) << "busy and healthy";

    auto limits = CongestionLimits{0.2, 0.9};
    auto p = seconds(10);
    p.rx_pause_us = 0.15 * 10e6;
    EXPECT_EQ(stateOf(p, limits), CongestionState::Idle) << "configured ratios";
    p.rx_pause_us = 2 * 10e6; // a reset between reads: clamped to the window
    EXPECT_EQ(judgeCongestion(p, limits).rx_paused_ratio, 1.0);
}

namespace {

// A port whose counters move at the given rates from t = 0.
Snapshot portAt(double t, double pause_us_per_s, double ecn_per_s, double oos_total = 0)
{
    Snapshot s;
    s.inventory.devices.push_back(test::device("mlx5_0", 4));
    DeviceSamples ds;
    ds.ibdev = "mlx5_0";
    ds.monotonic_usec = static_cast<uint64_t>(t * 1e6);
    test::addMlx5Samples(
        ds, {
                {"ethtool", 1, "eth0", "rx_prio3_pause_duration",
                 static_cast<uint64_t>(pause_us_per_s * t), plugin::v1::SampleKind::Counter},
                {"hw_counters", 1, "", "np_ecn_marked_roce_packets",
                 static_cast<uint64_t>(ecn_per_s * t), plugin::v1::SampleKind::Counter},
                {"hw_counters", 1, "", "out_of_sequence", static_cast<uint64_t>(oos_total),
                 plugin::v1::SampleKind::Counter},
            });
    s.samples = {ds};
    return s;
}

struct Judge {
    CongestionRules rules;
    ConditionSet conditions;
    Config config;
    std::string at(const Snapshot& s, double t)
    {
        std::vector<Event> out;
        rules.configure(config);
        rules.evaluate(s, t, t, conditions, out);
        HealthReport r;
        rules.annotate(r);
        auto it = r.congestion.find({"mlx5_0", 1});
        return it == r.congestion.end() ? "none" : it->second.state;
    }
};

} // namespace

TEST(CongestionRules, AWindowNotYetFullIsJudgedOnWhatItCovers)
{
    Judge j;
    EXPECT_EQ(j.at(portAt(100, 150000, 0), 100), "unknown");
    EXPECT_EQ(j.at(portAt(101, 150000, 0), 101), "unknown") << "1 s: too short";
    EXPECT_EQ(j.at(portAt(103, 150000, 0), 103), "pfc_only");
    EXPECT_TRUE(j.conditions.contains({"mlx5_0", 1, "congestion.pfc_only"}));
}

TEST(CongestionRules, OldReadingsLeaveTheWindowAndTheConditionRecovers)
{
    Judge j;
    double t = 1000;
    // A minute of pauses without ECN, then ECN is turned on: counters keep their totals.
    for (; t <= 1060; t += 1)
        j.at(portAt(t, 150000, 0), t);
    EXPECT_TRUE(j.conditions.contains({"mlx5_0", 1, "congestion.pfc_only"}));
    // From now on no more pauses (the totals stay), ECN marks flow.
    const double pause_total = 150000 * 1060.0;
    for (; t <= 1130; t += 1) {
        auto s = portAt(t, 0, 0);
        s.samples[0].plugin.values[0] = static_cast<uint64_t>(pause_total);
        s.samples[0].plugin.values[1] = static_cast<uint64_t>(100 * (t - 1060));
        j.at(s, t);
    }
    EXPECT_FALSE(j.conditions.contains({"mlx5_0", 1, "congestion.pfc_only"}))
        << "the pauses left the 60 s window";
}

TEST(CongestionRules, ACounterResetStartsAgain)
{
    Judge j;
    j.at(portAt(100, 0, 10, 50), 100);
    EXPECT_EQ(j.at(portAt(103, 0, 10, 0), 103), "unknown") << "out_of_sequence went back: reset";
    EXPECT_EQ(j.at(portAt(106, 0, 10, 0), 106), "ecn_working");
}

TEST(CongestionRules, TheWindowSurvivesARestart)
{
    Judge first;
    first.at(portAt(100, 150000, 0), 100);
    first.at(portAt(101, 150000, 0), 101);
    std::string saved; // as the state file holds it, port by port
    first.rules.appendJson(saved);
    Judge second; // a new `nicd --once` a few seconds later
    second.rules.restore(nlohmann::json::parse(saved));
    std::string again;
    second.rules.appendJson(again);
    EXPECT_EQ(again, saved) << "what was restored is saved again, byte for byte";
    EXPECT_EQ(second.at(portAt(104, 150000, 0), 104), "pfc_only");
    EXPECT_THROW(second.rules.restore(nlohmann::json::parse(R"([{"device":"x"}])")),
                 std::exception);
    EXPECT_THROW(second.rules.restore(nlohmann::json::parse(
                     R"([{"device":"x","port":1,"readings":[{"at":1,"values":{"99/x/y":1}}]}])")),
                 std::exception)
        << "a counter key this version does not write";
}

TEST(CongestionRules, PortsWithoutCongestionCountersAreNotJudged)
{
    Judge j;
    auto s = portAt(100, 0, 0);
    s.samples[0].plugin = {};
    EXPECT_EQ(j.at(s, 100), "none");
    auto ib = portAt(100, 150000, 0);
    ib.inventory.devices[0].ports[0].link_layer = "InfiniBand";
    EXPECT_EQ(j.at(ib, 100), "none");
}

TEST(CongestionRules, TwoPrioritiesPausedTogetherAreNotAddedUp)
{
    Judge j;
    j.config.provision.settings.pfc_priorities = {3, 4};
    auto at = [](double t) {
        auto s = portAt(t, 300000, 0); // prio 3 paused 30 %
        test::addMlx5Samples(s.samples[0], {{"ethtool", 1, "eth0", "rx_prio4_pause_duration",
                                             static_cast<uint64_t>(300000 * t),
                                             plugin::v1::SampleKind::Counter}}); // prio 4 too
        return s;
    };
    j.at(at(100), 100);
    EXPECT_EQ(j.at(at(110), 110), "pfc_only") << "30 % paused, not 60 %: no storm";
}

TEST(CongestionRules, ACounterThatComesBackIsNoJump)
{
    Judge j;
    auto without_oos = [](double t) {
        auto s = portAt(t, 0, 10);
        auto kept = toSamples(s.samples[0]);
        kept.pop_back(); // out_of_sequence backed off this cycle
        s.samples[0].plugin = {};
        test::addMlx5Samples(s.samples[0], kept);
        return s;
    };
    j.at(without_oos(100), 100);
    j.at(without_oos(103), 103);
    EXPECT_EQ(j.at(portAt(106, 0, 10, 123456), 106), "ecn_working")
        << "its lifetime total is not a delta";
}

TEST(CongestionRules, ACycleWithoutSomeCountersKeepsTheWindowAndTheVerdict)
{
    Judge j;
    j.at(portAt(100, 150000, 0), 100);
    EXPECT_EQ(j.at(portAt(103, 150000, 0), 103), "pfc_only");
    auto failed = portAt(104, 150000, 0);
    auto kept = toSamples(failed.samples[0]);
    kept.resize(1); // hw_counters did not answer
    failed.samples[0].plugin = {};
    test::addMlx5Samples(failed.samples[0], kept);
    EXPECT_EQ(j.at(failed, 104), "pfc_only") << "not judged: the ECN counters are missing";
    auto none = portAt(105, 0, 0);
    none.samples.clear(); // a stuck plugin: no samples at all
    EXPECT_EQ(j.at(none, 105), "pfc_only") << "the window is kept";
    EXPECT_TRUE(j.conditions.contains({"mlx5_0", 1, "congestion.pfc_only"}));
    EXPECT_EQ(j.at(portAt(106, 150000, 0), 106), "pfc_only");
}

TEST(CongestionRules, ALongGapStartsANewWindow)
{
    Judge j;
    j.at(portAt(100, 0, 0, 0), 100);
    // The daemon was stopped for an hour; drops happened long ago, none now.
    j.at(portAt(3700, 0, 0, 50), 3700);
    EXPECT_EQ(j.at(portAt(3703, 0, 0, 50), 3703), "idle") << "not lossy over the hour";
}

TEST(CongestionRules, APortThatGoesAwayRecoversItsCondition)
{
    Judge j;
    j.at(portAt(100, 150000, 0), 100);
    j.at(portAt(103, 150000, 0), 103);
    ASSERT_TRUE(j.conditions.contains({"mlx5_0", 1, "congestion.pfc_only"}));
    auto gone = portAt(104, 150000, 0);
    gone.inventory.devices.clear();
    EXPECT_EQ(j.at(gone, 104), "none");
    EXPECT_FALSE(j.conditions.contains({"mlx5_0", 1, "congestion.pfc_only"}));
}

// The XOFF the peer sent (mlx5 rx_prio<p>_pause_transition, bnxt_en pfc_pri<p>_rx_transitions)
// tell a held pause (a stuck receiver behind the switch port) from pausing in bursts; a NIC that
// does not count them says neither.
TEST(CongestionVerdict, AStormSaysWhetherThePeerHeldThePauseOrPausedInBursts)
{
    auto d = seconds(60);
    d.rx_pause_us = 0.97 * 60e6;
    auto v = judgeCongestion(d, {});
    ASSERT_EQ(v.state, CongestionState::PauseStorm);
    EXPECT_EQ(v.why.find("XOFF"), std::string::npos) << "no transitions counter: " << v.why;

    d.transitions_read = true;
    d.pause_transitions = 1;
    v = judgeCongestion(d, {});
    EXPECT_NE(v.why.find("the peer held the pause with 1 XOFF: a receiver stuck behind the "
                         "switch port"),
              std::string::npos)
        << v.why;
    d.pause_transitions = 0; // held since before the window began
    EXPECT_NE(judgeCongestion(d, {}).why.find("held the pause with 0 XOFF"), std::string::npos);

    d.pause_transitions = 12000;
    v = judgeCongestion(d, {});
    EXPECT_NE(v.why.find("the peer paused us in 12000 XOFF bursts"), std::string::npos) << v.why;

    d.rx_pause_us = 0;
    d.tx_pause_us = 0.97 * 60e6; // we paused the peer: its XOFF say nothing of it
    EXPECT_EQ(judgeCongestion(d, {}).why.find("XOFF"), std::string::npos);
}
