// Links over time on hand-built snapshots: link_drop (a port down for DropSec whose link-down
// counters do not move) beside port_down, and link_flapping's two ways of counting (FlapMode=)
// and how long it holds (FlapClearSec=, nicctl clear). The transition count itself:
// health_engine_test.cpp.
#include "health/health_engine.hpp"
#include "health/link_history.hpp"
#include "support/health_fixture.hpp"

#include <gtest/gtest.h>

using namespace nicd;
using namespace nicd::health;
using namespace nicd::test;

namespace {

constexpr int kPolling = 2;
constexpr int kDisabled = 3;

// mlx5_0 port 1 up (ACTIVE, LinkUp) or down (DOWN) with physical state `phys`.
Device port(bool up, int phys = kPolling)
{
    auto d = device("mlx5_0", up ? 4 : 1);
    d.ports[0].netdevs = {"ens1f0np0"};
    if (!up) {
        d.ports[0].phys_state = phys;
        d.ports[0].phys_state_name = phys == kPolling ? "Polling" : "Disabled";
    }
    return d;
}

class LinkDropTest : public HealthTest {
protected:
    // mlx5_0 as `d`, its PMA link_downed `pma` and (unless negative) the PHY's
    // link_down_events_phy `phy`, read this cycle.
    Snapshot node(const Device& d, uint64_t pma, int64_t phy = -1)
    {
        Snapshot s;
        s.inventory.devices = {d};
        DeviceSamples ds;
        ds.ibdev = "mlx5_0";
        std::vector<Sample> samples{{"counters", 1, "", "link_downed", pma, SampleKind::Counter}};
        if (phy >= 0)
            samples.push_back({"ethtool", 1, "ens1f0np0", "link_down_events_phy",
                               static_cast<uint64_t>(phy), SampleKind::Counter});
        addMlx5Samples(ds, samples);
        s.samples.push_back(std::move(ds));
        return s;
    }
    void configure(const std::function<void(HealthConfig&)>& change)
    {
        change(config_.health);
        engine_.configure(config_);
    }
    bool raisedAnEvent(const std::string& code) const
    {
        for (const auto& e : last_events_)
            if (e.code == code && e.kind == EventKind::Raised)
                return true;
        return false;
    }
};

} // namespace

// The link went down once (link_downed 4 -> 5) and never trained again: port_down at once,
// link_drop when DropSec (240 s by default) has passed with the counters where they were.
TEST_F(LinkDropTest, ALinkThatNeverTrainsAgainIsADropAfterDropSec)
{
    at(0, node(port(true), 4, 0));
    auto s = at(10, node(port(false), 5, 1));
    EXPECT_TRUE(find(s, "port_down"));
    EXPECT_FALSE(find(s, "link_drop"));
    s = at(249, node(port(false), 5, 1));
    EXPECT_FALSE(find(s, "link_drop")) << "239 s since the counters were last seen to move";
    s = at(250, node(port(false), 5, 1));
    const Condition* drop = find(s, "link_drop");
    ASSERT_TRUE(drop);
    EXPECT_EQ(drop->severity, ConditionSeverity::Fatal);
    EXPECT_EQ(drop->action, Action::CheckCable);
    EXPECT_EQ(drop->source, ConditionSource::Link);
    EXPECT_NE(drop->message.find("down 240 s or more (DropSec)"), std::string::npos)
        << drop->message;
    EXPECT_NE(drop->message.find("link_downed 5, link_down_events_phy 1"), std::string::npos)
        << drop->message;
    EXPECT_NE(drop->message.find("physical state Polling"), std::string::npos) << drop->message;
    EXPECT_TRUE(find(s, "port_down")) << "link_drop says more beside it, it does not replace it";
    EXPECT_EQ(portHealth(s), Health::Fatal);
}

// A link that trains and fails again and again while nicd only ever sees it down: each failure
// moves a link-down counter, and a moving counter is no drop (gpud: "potential flap").
TEST_F(LinkDropTest, ALinkThatKeepsFailingIsNoDrop)
{
    at(0, node(port(true), 0, 0));
    Snapshot s;
    for (int t = 10, n = 1; t <= 1000; t += 10, ++n)
        s = at(t, node(port(false), n / 20, n / 15)); // one or the other moves every 150-200 s
    EXPECT_TRUE(find(s, "port_down"));
    EXPECT_FALSE(find(s, "link_drop"));
    s = at(1240, node(port(false), 1000 / 10 / 20, 1000 / 10 / 15));
    EXPECT_TRUE(find(s, "link_drop")) << "and once they stop moving for DropSec, it is one";
}

// A port never up this boot (an unused, uncabled port: port_never_up, info) is no drop, however
// long it polls; nor is a port switched off on this side (Disabled: ip link set down).
TEST_F(LinkDropTest, UnusedAndSwitchedOffPortsAreNoDrops)
{
    auto s = at(0, node(port(false), 0));
    for (double t : {300.0, 3600.0})
        s = at(t, node(port(false), 0));
    EXPECT_FALSE(find(s, "link_drop"));
    ASSERT_TRUE(find(s, "port_never_up"));
    EXPECT_EQ(find(s, "port_never_up")->severity, ConditionSeverity::Info);
    EXPECT_EQ(portHealth(s), Health::Healthy);

    at(4000, node(port(true), 0));
    for (double t : {4010.0, 4300.0, 8000.0})
        s = at(t, node(port(false, kDisabled), 1));
    EXPECT_TRUE(find(s, "port_down"));
    EXPECT_FALSE(find(s, "link_drop")) << "Disabled: nothing the cable or switch did";
}

// Back up, link_drop holds DropHoldSec (600 s) and says until when; port_down recovers at once.
TEST_F(LinkDropTest, ADropHoldsAfterThePortIsBack)
{
    at(0, node(port(true), 0));
    at(10, node(port(false), 1));
    auto s = at(300, node(port(false), 1));
    ASSERT_TRUE(find(s, "link_drop"));
    s = at(400, node(port(true), 1));
    EXPECT_FALSE(find(s, "port_down"));
    ASSERT_TRUE(find(s, "link_drop"));
    EXPECT_EQ(find(s, "link_drop")->severity, ConditionSeverity::Fatal);
    EXPECT_NE(find(s, "link_drop")->message.find("held until"), std::string::npos);
    EXPECT_NE(find(s, "link_drop")->message.find("DropHoldSec=600"), std::string::npos);
    EXPECT_EQ(portHealth(s), Health::Fatal);
    s = at(999, node(port(true), 1));
    EXPECT_TRUE(find(s, "link_drop"));
    s = at(1000, node(port(true), 1));
    EXPECT_FALSE(find(s, "link_drop"));
    EXPECT_EQ(portHealth(s), Health::Healthy);
    ASSERT_FALSE(last_events_.empty());
    EXPECT_EQ(last_events_.back().kind, EventKind::Recovered);
    EXPECT_NE(last_events_.back().message.find("DropHoldSec=600"), std::string::npos);
}

// An operator who fixed the cable clears the hold; a port still down is raised again.
TEST_F(LinkDropTest, AClearEndsTheHoldButNotADropThatIsStillThere)
{
    at(0, node(port(true), 0));
    at(10, node(port(false), 1));
    at(300, node(port(false), 1));
    EXPECT_EQ(engine_.clear("mlx5_0", "link_drop", 1700000301), 1U);
    auto s = at(302, node(port(false), 1));
    EXPECT_TRUE(find(s, "link_drop")) << "still down, its counters still: the cause persists";
    at(310, node(port(true), 1));
    EXPECT_EQ(engine_.clear("mlx5_0", "link_drop", 1700000311), 1U);
    s = at(320, node(port(true), 1));
    EXPECT_FALSE(find(s, "link_drop"));
}

TEST_F(LinkDropTest, DropSecSetsWhenAndZeroTurnsItOff)
{
    configure([](HealthConfig& h) {
        h.drop_sec = 30;
        h.drop_hold_sec = 0;
    });
    at(0, node(port(true), 0));
    at(10, node(port(false), 1));
    auto s = at(40, node(port(false), 1));
    EXPECT_TRUE(find(s, "link_drop"));
    s = at(41, node(port(true), 1));
    EXPECT_FALSE(find(s, "link_drop")) << "DropHoldSec=0: it clears when the port is back";

    configure([](HealthConfig& h) { h.drop_sec = 0; });
    at(50, node(port(false), 2));
    s = at(5000, node(port(false), 2));
    EXPECT_TRUE(find(s, "port_down"));
    EXPECT_FALSE(find(s, "link_drop"));
}

// FlapClearSec=0: link_flapping holds, long after the flaps left the window, until an operator
// clears it; then the flaps are forgotten and it stays cleared.
TEST_F(LinkDropTest, StickyFlappingHoldsUntilCleared)
{
    configure([](HealthConfig& h) { h.flap_clear_sec = 0; });
    double t = 0;
    for (int i = 0; i < 3; ++i) {
        at(t += 5, node(port(true), i));
        at(t += 5, node(port(false, kDisabled), i + 1));
    }
    auto s = at(t += 5, node(port(true), 3));
    ASSERT_TRUE(find(s, "link_flapping"));
    EXPECT_NE(find(s, "link_flapping")->message.find("nicctl clear mlx5_0 link_flapping"),
              std::string::npos);
    s = at(t += 86400, node(port(true), 3));
    EXPECT_TRUE(find(s, "link_flapping")) << "a day later";
    EXPECT_EQ(engine_.clear("mlx5_0", "link_flapping", 1700000000 + t), 1U);
    s = at(t += 5, node(port(true), 3));
    EXPECT_FALSE(find(s, "link_flapping"));
    EXPECT_TRUE(last_events_.empty()) << "not raised again from the same flaps";
}

// FlapClearSec=N: link_flapping clears N s after the port last came back, not when the flaps
// age out of the window, and not while the port is down.
TEST_F(LinkDropTest, FlappingAutoClearsFlapClearSecAfterTheLastComeback)
{
    configure([](HealthConfig& h) {
        h.flap_clear_sec = 1000;
        h.flap_window_sec = 60;
    });
    at(0, node(port(true), 0));
    at(5, node(port(false, kDisabled), 1));
    at(10, node(port(true), 1));
    at(15, node(port(false, kDisabled), 2));
    at(20, node(port(true), 2));
    auto s = at(25, node(port(false, kDisabled), 3));
    ASSERT_TRUE(find(s, "link_flapping"));
    s = at(500, node(port(false, kDisabled), 3));
    EXPECT_TRUE(find(s, "link_flapping")) << "the flaps left the 60 s window; the port is down";
    at(600, node(port(true), 3)); // back at 600
    s = at(1599, node(port(true), 3));
    EXPECT_TRUE(find(s, "link_flapping"));
    s = at(1600, node(port(true), 3));
    EXPECT_FALSE(find(s, "link_flapping"));
    ASSERT_FALSE(last_events_.empty());
    EXPECT_EQ(last_events_.back().message, "link stable for 1000 s (FlapClearSec=1000)");
}

// A FlapClearSec shorter than the window: it clears while its flaps are still in the window, and
// they are forgotten, so it is not raised again from them.
TEST_F(LinkDropTest, FlappingClearsBeforeItsFlapsLeaveTheWindow)
{
    configure([](HealthConfig& h) { h.flap_clear_sec = 100; });
    double t = 0;
    for (int i = 0; i < 3; ++i) {
        at(t += 5, node(port(true), i));
        at(t += 5, node(port(false, kDisabled), i + 1));
    }
    auto s = at(t += 5, node(port(true), 3)); // back at 35
    ASSERT_TRUE(find(s, "link_flapping"));
    s = at(134, node(port(true), 3));
    EXPECT_TRUE(find(s, "link_flapping"));
    s = at(135, node(port(true), 3));
    EXPECT_FALSE(find(s, "link_flapping")) << "three downs still within 600 s";
    s = at(140, node(port(true), 3));
    EXPECT_FALSE(find(s, "link_flapping"));
    EXPECT_TRUE(last_events_.empty());
}

// FlapMode=down-and-back (gpud's): a flap is a down of FlapDownSec or longer that came back.
// Blips do not count; three long downs that came back do.
TEST_F(LinkDropTest, DownAndBackCountsOnlyLongDownsThatCameBack)
{
    configure([](HealthConfig& h) {
        h.flap_mode = FlapMode::DownAndBack;
        h.flap_down_sec = 25;
    });
    double t = 0;
    at(t, node(port(true), 0));
    for (int i = 0; i < 5; ++i) { // five 10 s blips
        at(t += 10, node(port(false, kDisabled), 0));
        at(t += 10, node(port(true), 0));
    }
    EXPECT_FALSE(find(at(t += 1, node(port(true), 0)), "link_flapping"))
        << "five downs of 10 s: flapping by transitions, no flap down-and-back";
    Snapshot s;
    for (int i = 0; i < 3; ++i) {
        at(t += 10, node(port(false, kDisabled), 0));
        s = at(t += 30, node(port(false, kDisabled), 0));
        EXPECT_FALSE(find(s, "link_flapping")) << "still down: not back yet";
        s = at(t += 10, node(port(true), 0));
    }
    ASSERT_TRUE(find(s, "link_flapping"));
    EXPECT_TRUE(raisedAnEvent("link_flapping"));
    EXPECT_NE(find(s, "link_flapping")
                  ->message.find("went down for 25 s or more and came back 3 times within 600 s"),
              std::string::npos)
        << find(s, "link_flapping")->message;
}

// The port memory survives a restart (the state file), and a document of the nicd before this
// one, without the new fields, restores as a port that neither dropped nor flapped back.
TEST_F(LinkDropTest, TheDropClockSurvivesARestartAndOldStateRestores)
{
    at(0, node(port(true), 0));
    at(10, node(port(false), 1));
    at(200, node(port(false), 1));
    HealthEngine next{config_};
    next.restore(savedState(engine_));
    auto s = node(port(false), 1);
    next.evaluate(s, 250, 1700000250);
    EXPECT_TRUE(find(s, "link_drop")) << "240 s since 10, across the restart";

    auto old = nlohmann::json::parse(
        R"({"ever_up":true,"was_up":false,"downs":[1810.0],"device":"mlx5_0","port":1})");
    auto h = PortHistory::fromJson(old);
    EXPECT_TRUE(h.backs.empty());
    EXPECT_FALSE(h.drop_since);
    EXPECT_TRUE(h.drop_counts.empty());
    h.was_up = true;
    EXPECT_TRUE(h.settled(1810 + 600, HealthConfig{})) << "it came back at its last down at latest";
    EXPECT_EQ(PortHistory{}.toJson().size(), 3U) << "nothing new written for a quiet port";
}
