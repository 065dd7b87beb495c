// RoCE QoS by the real nicd on a mixed simulated node (nicd-sim create --vendor mlx5,bnxt): the
// bnxt plugin provisions a bnxt PF (its DSCP entry, ETS then PFC, ToS) beside the mlx5 ones,
// repairs drift injected by nicd-sim, and leaves the port's DCB alone while nicd-sim's
// dcbx-firmware fault hands it to the NIC firmware's DCBX agent (reported, logged once); while
// the NVIDIA network operator's driver is not ready, only the mlx5 ports wait for it.
#include "node_state.hpp"
#include "support/provisioning_fixture.hpp"

#include <regex>

#include <gtest/gtest.h>

using namespace nicd;
using namespace std::chrono_literals;

namespace {

class BnxtProvisioning : public test::ProvisioningTest {
protected:
    sim::CreateOptions nodeOptions() const override { return {.vendors = "mlx5,bnxt"}; }

    // The node's first bnxt PF: its RDMA device and netdev.
    std::pair<std::string, std::string> bnxtPf() const
    {
        const auto st = sim::NodeState::load(root_);
        for (const auto& [name, d] : st.devices)
            if (d.vendor == "bnxt" && d.role == "pf" && !d.netdevs.empty())
                return {name, d.netdevs.front()};
        ADD_FAILURE() << "no bnxt PF in the node";
        return {};
    }
    // Provisioning rounds finished so far, of every kind (nicd_qos_rounds_total).
    uint64_t roundsTotal() const
    {
        static const std::regex re(R"(\nnicd_qos_rounds_total\{kind="[a-z-]+"\} ([0-9]+))");
        const auto text = textfile();
        uint64_t n = 0;
        for (std::sregex_iterator it(text.begin(), text.end(), re), end; it != end; ++it)
            n += std::stoull((*it)[1]);
        return n;
    }
};

} // namespace

TEST_F(BnxtProvisioning, MixedNodeProvisionsBnxtRepairsDriftAndLeavesFirmwareDcbAlone)
{
    const auto pf = bnxtPf(); // not a structured binding: lambdas capture these (clang 14)
    const std::string dev = pf.first;
    const std::string netdev = pf.second;
    ASSERT_FALSE(dev.empty());
    ASSERT_NE(dcb(netdev).find("dcbx=9\n"), std::string::npos) << "a fresh host-owned port";
    writeConfig("[textfile]\nCounters=all\n"); // nicd_qos_changes_total: what it wrote
    start();
    ASSERT_TRUE(waitForText(compliant(dev, "pfc", 1))) << log() << textfile();
    EXPECT_TRUE(waitForText(compliant("mlx5_0", "pfc", 1))) << textfile();
    EXPECT_NE(textfile().find(compliant(dev, "trust", 1)), std::string::npos) << textfile();
    EXPECT_NE(textfile().find(compliant(dev, "roce_tos", 1)), std::string::npos);
    EXPECT_NE(dcb(netdev).find("pfc_en=8\n"), std::string::npos) << dcb(netdev);
    EXPECT_NE(dcb(netdev).find("app=5,3,26\n"), std::string::npos) << "DSCP 26 -> priority 3";
    EXPECT_NE(dcb(netdev).find("prio_tc=0,0,0,1,0,0,0,0\n"), std::string::npos) << "ETS first";
    EXPECT_EQ(tos(dev), "106\n");

    inject("qos-drift", dev);
    EXPECT_TRUE(test::waitFor(
        [&] { return log().find("QoS drift on " + dev + " port 1") != std::string::npos; }, 15s))
        << log();
    EXPECT_TRUE(
        test::waitFor([&] { return dcb(netdev).find("pfc_en=8\n") != std::string::npos; }, 15s))
        << dcb(netdev);

    // The firmware's agent takes the port and changes PFC: nicd reports it, writes nothing.
    inject("dcbx-firmware", dev);
    inject("qos-drift", dev);
    ASSERT_TRUE(waitForText(compliant(dev, "pfc", 0), 15s)) << textfile();
    const auto changes = textfile().find("nicd_qos_changes_total{device=\"" + dev +
                                         "\",port=\"1\",setting=\"pfc\"} 2\n");
    EXPECT_NE(changes, std::string::npos) << "the start and the one repair only\n" << textfile();
    EXPECT_TRUE(test::waitFor(
        [&] { return test::occurrences(log(), "firmware's DCBX agent owns") >= 1; }, 15s))
        << log();
    // Two more rounds finished (the one that logged it, then a whole one after it).
    const uint64_t rounds = roundsTotal();
    ASSERT_TRUE(test::waitFor([&] { return roundsTotal() >= rounds + 2; }, 20s)) << textfile();
    EXPECT_NE(dcb(netdev).find("pfc_en=16\n"), std::string::npos) << dcb(netdev);
    EXPECT_EQ(test::occurrences(log(), "firmware's DCBX agent owns"), 1U)
        << "once, not every round\n"
        << log();

    // Handed back: repaired again.
    inject("dcbx-firmware-clear", dev);
    EXPECT_TRUE(waitForText(compliant(dev, "pfc", 1), 15s)) << textfile() << log();
}

TEST_F(BnxtProvisioning, WhileTheMlx5DriverIsNotReadyOnlyItsPortsWait)
{
    // DriverReadyFile= unset (auto): the mlx5 plugin names the NVIDIA network operator's file
    // (plugin ABI 1.6). The operator is deployed (its drivers directory exists) and its driver
    // container has not finished: the mlx5 ports wait for it, the bnxt one does not.
    const auto pf = bnxtPf(); // not a structured binding: lambdas capture these (clang 14)
    const std::string dev = pf.first;
    const std::string netdev = pf.second;
    ASSERT_FALSE(dev.empty());
    std::filesystem::create_directories(root_ / "run/mellanox/drivers");
    writeConfig("ReadyTimeoutSec=1\n");
    start();
    ASSERT_TRUE(waitForText(compliant(dev, "pfc", 1))) << log() << textfile();
    ASSERT_NO_FATAL_FAILURE(expectDriverNotReadyLogged("/run/mellanox/drivers/.driver-ready"));
    EXPECT_EQ(textfile().find("nicd_qos_compliant{device=\"mlx5_0\""), std::string::npos)
        << textfile();
    std::ofstream(root_ / "run/mellanox/drivers/.driver-ready");
    EXPECT_TRUE(waitForText(compliant("mlx5_0", "pfc", 1))) << log() << textfile();
}
