// The switch at the other end of each cable, as an operator meets it on a running nicd: the Port
// object's Neighbors and SwitchQos on the bus (busctl), the SWITCH column of `nicctl status` and
// `nicctl verify`, `nicctl show`'s switch line, and a switch whose PFC changes while nicd runs
// (nicd-sim's twin of lldpd, read on [signals] IntervalSec=).
#include "neighbors/neighbor_twin.hpp"
#include "support/bus_fixture.hpp"

#include <regex>

#include <gtest/gtest.h>

using namespace nicd;
using namespace std::chrono_literals;

namespace {

class NeighborOnBus : public test::NicdOnBusTest {
protected:
    std::string tempTag() const override { return "lldpbus"; }
    // The simulated switches, as nicd-sim create cables them; the neighbours read every second.
    void prepareNode() override { sim::createNeighborTwin(root_); }
    std::string extraConfig() const override { return "[signals]\nIntervalSec=1\n"; }

    static constexpr const char* kPort = "/io/nicd/Nicd1/device/mlx5_0/port/1";
};

} // namespace

TEST_F(NeighborOnBus, ThePortsSwitchIsOnTheBusAndInEveryNicctlView)
{
    ASSERT_TRUE(test::waitFor(
        [&] {
            return property(kPort, "io.nicd.Nicd1.Port", "Neighbors").find("leaf-01") !=
                   std::string::npos;
        },
        15s))
        << property(kPort, "io.nicd.Nicd1.Port", "Neighbors") << log();
    // (switch, switch port, chassis ID, port ID, management address, TTL)
    EXPECT_TRUE(std::regex_search(property(kPort, "io.nicd.Nicd1.Port", "Neighbors"),
                                  std::regex(R"(^a\(sssssu\) 1 "leaf-01" "swp1" "[0-9a-f:]{17}" )"
                                             R"("swp1" "10\.0\.1\.1" 120)")))
        << property(kPort, "io.nicd.Nicd1.Port", "Neighbors");
    // What the switch advertises: the fabric's profile, PFC on 3 and DSCP 26 on priority 3.
    const auto switch_qos = property(kPort, "io.nicd.Nicd1.Port", "SwitchQos");
    EXPECT_NE(switch_qos.find(R"("pfc" "3")"), std::string::npos) << switch_qos;
    EXPECT_NE(switch_qos.find(R"("roce_tos" "DSCP 26 -> 3")"), std::string::npos) << switch_qos;

    auto [rc, status] = nicctl({"status"});
    EXPECT_TRUE(std::regex_search(
        status, std::regex(R"(\nmlx5_0 +compute +1 +ens1f0np0 +leaf-01:swp1 +ACTIVE )")))
        << status;
    auto [show_rc, show] = nicctl({"show", "mlx5_0"});
    EXPECT_NE(show.find("  switch:      leaf-01 swp1 (chassis "), std::string::npos) << show;
    auto [verify_rc, verify] = nicctl({"verify"});
    EXPECT_TRUE(std::regex_search(verify, std::regex(R"(\nmlx5_0/1 +pfc +3 +3 +3 +compliant)")))
        << verify;
    // Anyone may read it: an unprivileged user sees the same column.
    auto [nobody_rc, as_nobody] = nicctl({"status"}, true);
    EXPECT_NE(as_nobody.find("leaf-01:swp1"), std::string::npos) << as_nobody;
}

TEST_F(NeighborOnBus, ASwitchWhosePfcChangesIsAMismatchUntilItIsBack)
{
    ASSERT_TRUE(test::waitFor(
        [&] { return nicctl({"status"}).second.find("leaf-01:swp1") != std::string::npos; }, 15s))
        << log();
    std::string out;
    ASSERT_EQ(
        test::run({NICD_SIM_BIN, "inject", root_.string(), "switch-pfc", "mlx5_0", "3,4"}, out), 0)
        << out;
    ASSERT_TRUE(test::waitFor(
        [&] {
            return nicctl({"status"})
                       .second.find("qos.switch_mismatch: leaf-01 swp1 enables PFC on 3,4; this "
                                    "host on 3") != std::string::npos;
        },
        15s))
        << nicctl({"status"}).second << log();
    auto [rc, status] = nicctl({"status"});
    EXPECT_EQ(rc, 1) << "degraded: the switch port, not the node, is to fix\n" << status;
    EXPECT_TRUE(std::regex_search(nicctl({"verify"}).second,
                                  std::regex(R"(\nmlx5_0/1 +pfc +3 +3 +3,4 +compliant)")))
        << nicctl({"verify"}).second;
    ASSERT_EQ(
        test::run({NICD_SIM_BIN, "inject", root_.string(), "switch-pfc-clear", "mlx5_0"}, out), 0)
        << out;
    EXPECT_TRUE(test::waitFor(
        [&] { return nicctl({"status"}).second.find("qos.switch_mismatch") == std::string::npos; },
        15s))
        << nicctl({"status"}).second;
}
