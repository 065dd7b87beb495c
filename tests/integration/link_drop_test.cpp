// Links over time on a simulated node, with nicd as a daemon: a link that drops and never trains
// again (nicd-sim link-drop) is link_drop beside what any lost port raises, and holds after the
// port is back; a link flapping down-and-back (nicd-sim flap --down-sec) is link_flapping, held
// until an operator clears it (FlapClearSec=0) or until the port has been stable FlapClearSec.
#include "sim.hpp"
#include "support/bus_fixture.hpp"
#include "support/capture_runs.hpp"
#include "support/daemon_fixture.hpp"
#include "support/process.hpp"

#include <set>
#include <thread>

#include <gtest/gtest.h>

using namespace nicd;
using namespace std::chrono_literals;

namespace {

bool hasCode(const std::set<std::string>& conditions, const std::string& prefix)
{
    for (const auto& c : conditions)
        if (c.starts_with(prefix))
            return true;
    return false;
}

const std::string kHealthy = "nicd_port_health{device=\"mlx5_0\",port=\"1\"} 0";
const std::string kDrop = "mlx5_0 1 link_drop fatal check_cable";
const std::string kFlapping = "mlx5_0 1 link_flapping degraded replace_cable_or_transceiver";

class LinkDrop : public test::DaemonTest {
protected:
    std::string tempTag() const override { return "linkdrop"; }
    std::set<std::string> conditions() const { return test::activeConditions(textfileText()); }
    bool showsCondition(const std::string& c, bool shown, std::chrono::milliseconds limit) const
    {
        return test::waitFor([&] { return conditions().contains(c) == shown; }, limit);
    }
    // `nicd-sim inject NODE flap mlx5_0 ...`, which must succeed.
    void flap(const std::vector<std::string>& args) const
    {
        std::vector<std::string> argv{NICD_SIM_BIN, "inject", root_.string(), "flap", "mlx5_0"};
        argv.insert(argv.end(), args.begin(), args.end());
        std::string out;
        ASSERT_EQ(test::run(argv, out, 60s), 0) << out;
    }
};

} // namespace

// DropSec=2: mlx5_0's link drops (phys_state Polling, link_downed still). What a lost port raises
// comes at once (port_down, its netdev's netdev_down, the node's inventory_short.compute); two
// seconds on, link_drop and nothing else (no counter.link_downed, no flapping). Back up, port_down
// recovers and link_drop holds (DropHoldSec=3600): the node stays fatal until the link has proven
// itself.
TEST_F(LinkDrop, ADroppedLinkRaisesLinkDropAndHoldsAfterItIsBack)
{
    writeConfig("[health]\nDropSec=2\nDropHoldSec=3600\n");
    start();
    ASSERT_TRUE(textfileShows(kHealthy, 15s)) << log();
    const auto before = conditions();

    inject("link-drop", "mlx5_0");
    ASSERT_TRUE(showsCondition(kDrop, true, 20s)) << textfileText() << log();
    const auto after = conditions();
    std::set<std::string> added;
    for (const auto& c : after)
        if (!before.contains(c) && !c.starts_with("mlx5_0 1 port_down ") &&
            !c.starts_with("mlx5_0 1 netdev_down.") && !c.starts_with(" 0 inventory_short."))
            added.insert(c);
    EXPECT_EQ(added, std::set<std::string>{kDrop}) << "beside what any lost port raises";
    EXPECT_TRUE(after.contains("mlx5_0 1 port_down fatal check_cable"));

    inject("link-drop-clear", "mlx5_0");
    ASSERT_TRUE(test::waitFor([&] { return !hasCode(conditions(), "mlx5_0 1 port_down "); }, 15s))
        << textfileText();
    const auto back = textfileText();
    EXPECT_TRUE(test::activeConditions(back).contains(kDrop)) << "held for DropHoldSec";
    EXPECT_NE(back.find("nicd_port_health{device=\"mlx5_0\",port=\"1\"} 2"), std::string::npos);
    EXPECT_NE(back.find("nicd_port_state{device=\"mlx5_0\",port=\"1\"} 4"), std::string::npos);
}

// FlapClearSec=2 (the default is 600): three flaps of a second each are link_flapping, which
// clears by itself once the port has stayed up two seconds, without an operator.
TEST_F(LinkDrop, FlappingClearsByItselfFlapClearSecAfterTheLastComeback)
{
    writeConfig("[health]\nFlapClearSec=2\n");
    start();
    ASSERT_TRUE(textfileShows(kHealthy, 15s)) << log();
    flap({"--times", "3", "--down-sec", "1", "--up-sec", "1"});
    ASSERT_TRUE(showsCondition(kFlapping, true, 15s)) << textfileText() << log();
    EXPECT_TRUE(showsCondition(kFlapping, false, 20s)) << textfileText();
    EXPECT_NE(log().find("link stable for 2 s (FlapClearSec=2)"), std::string::npos) << log();
}

namespace {

class StickyFlap : public test::NicdOnBusTest {
protected:
    std::string tempTag() const override { return "stickyflap"; }
    // gpud's semantics: a flap is a down of a second or more that came back; held until cleared.
    std::string extraConfig() const override
    {
        return "[health]\nFlapMode=down-and-back\nFlapDownSec=1\nFlapClearSec=0\n";
    }
    std::set<std::string> conditions() const { return test::activeConditions(textfileText()); }
};

} // namespace

// Three downs of 1.5 s that came back: link_flapping, which holds with the port up until root
// runs nicctl clear; then it stays cleared (its flaps are forgotten).
TEST_F(StickyFlap, ADownAndBackFlapHoldsUntilAnOperatorClearsIt)
{
    ASSERT_TRUE(textfileShows(kHealthy, 15s)) << log();
    std::string out;
    ASSERT_EQ(test::run({NICD_SIM_BIN, "inject", root_.string(), "flap", "mlx5_0", "--times", "3",
                         "--down-sec", "1.5", "--up-sec", "1"},
                        out, 60s),
              0)
        << out;
    ASSERT_TRUE(test::waitFor([&] { return conditions().contains(kFlapping); }, 15s))
        << textfileText() << log();
    ASSERT_TRUE(textfileShows("nicd_port_state{device=\"mlx5_0\",port=\"1\"} 4", 10s));
    std::this_thread::sleep_for(1s); // cycles go by, the port up: it holds
    EXPECT_TRUE(conditions().contains(kFlapping));

    auto [rc, cleared] = nicctl({"clear", "mlx5_0", "link_flapping"});
    ASSERT_EQ(rc, 0) << cleared;
    EXPECT_NE(cleared.find("cleared 1"), std::string::npos) << cleared;
    ASSERT_TRUE(test::waitFor([&] { return !conditions().contains(kFlapping); }, 5s));
    std::this_thread::sleep_for(1s);
    EXPECT_FALSE(conditions().contains(kFlapping)) << "not raised again from the same flaps";
}
