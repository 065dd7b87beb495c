// A ConnectX-8 in multi-plane mode end to end (nicd-sim create --profile hgx-b300 --infiniband,
// inject smi-add mlx5_0): its SMI device is no NIC and the node stays healthy (no extra device, no
// ready.no_uverbs for the SMI device, no ready.no_umad for the port without its issm, nicd --once
// exits 0), the planes show in the textfile and in nicctl show; a plane trained down
// (plane-downtrain mlx5_0 2) raises exactly plane_rate_degraded on mlx5_0 port 1.
#include "support/bus_fixture.hpp"
#include "support/capture_runs.hpp"
#include "support/daemon_fixture.hpp"
#include "support/process.hpp"

#include <set>

#include <gtest/gtest.h>

using namespace nicd;
using namespace std::chrono_literals;

namespace {

using Strings = std::set<std::string>;

sim::CreateOptions cx8InfiniBand()
{
    sim::CreateOptions o;
    sim::applyProfile(o, "hgx-b300");
    o.infiniband = true;
    return o;
}

class MultiPlane : public test::DaemonTest {
protected:
    std::string tempTag() const override { return "planes"; }
    sim::CreateOptions nodeOptions() const override { return cx8InfiniBand(); }
    std::string baseConfig() const override
    {
        return "[provision]\nMode=off\n[signals]\nIntervalSec=1\n";
    }
    // `nicd --once`: its exit status; its output in out_, the textfile's in text_.
    int once()
    {
        int rc = test::run(nicd({"--once"}), out_);
        text_ = textfileText();
        return rc;
    }
    void sim(const std::vector<std::string>& args) const
    {
        std::vector<std::string> argv{NICD_SIM_BIN, "inject", root_.string()};
        argv.insert(argv.end(), args.begin(), args.end());
        std::string out;
        ASSERT_EQ(test::run(argv, out), 0) << out;
    }

    std::string out_, text_;
};

} // namespace

TEST_F(MultiPlane, TheSmiDeviceIsPlanesOfItsParentAndTheNodeStaysHealthy)
{
    writeConfig("");
    ASSERT_EQ(once(), 0) << out_;
    ASSERT_EQ(test::activeConditions(text_), Strings{}) << out_;
    const auto devices = test::occurrences(text_, "nicd_device_info{");
    EXPECT_EQ(devices, 10U); // 8 compute NICs, 2 storage ports

    sim({"smi-add", "mlx5_0"});
    EXPECT_EQ(once(), 0) << out_;
    EXPECT_EQ(test::activeConditions(text_), Strings{}) << out_;
    EXPECT_EQ(test::occurrences(text_, "nicd_device_info{"), devices) << "smi0 is no NIC";
    EXPECT_EQ(text_.find("device=\"smi0\""), std::string::npos) << "no series of its own";
    EXPECT_NE(text_.find("nicd_port_planes{device=\"mlx5_0\",port=\"1\"} 4"), std::string::npos)
        << text_;
    EXPECT_EQ(test::occurrences(text_, "nicd_port_planes{"), 1U) << "only mlx5_0's port has planes";
    EXPECT_NE(text_.find("nicd_port_ready{device=\"mlx5_0\",port=\"1\"} 1"), std::string::npos)
        << "no issm on a multi-plane port is no fault\n"
        << text_;

    sim({"plane-downtrain", "mlx5_0", "2"});
    EXPECT_NE(once(), 0) << out_;
    EXPECT_EQ(test::activeConditions(text_),
              Strings{"mlx5_0 1 plane_rate_degraded degraded check_cable"})
        << out_;
    EXPECT_NE(out_.find("plane 2 (smi0 port 2) runs at 100 Gb/sec (1X NDR); plane 1 at 200 "
                        "Gb/sec (1X XDR)"),
              std::string::npos)
        << out_;

    sim({"plane-downtrain-clear", "mlx5_0"});
    EXPECT_EQ(once(), 0) << out_;
    EXPECT_EQ(test::activeConditions(text_), Strings{}) << out_;

    sim({"smi-add-clear", "mlx5_0"});
    EXPECT_EQ(once(), 0) << out_;
    EXPECT_EQ(test::activeConditions(text_), Strings{}) << out_;
    EXPECT_EQ(text_.find("nicd_port_planes{"), std::string::npos);
}

namespace {

class MultiPlaneOnBus : public test::NicdOnBusTest {
protected:
    std::string tempTag() const override { return "planes-bus"; }
    sim::CreateOptions nodeOptions() const override { return cx8InfiniBand(); }
    void prepareNode() override
    {
        std::string out;
        ASSERT_EQ(test::run({NICD_SIM_BIN, "inject", root_.string(), "smi-add", "mlx5_0"}, out), 0)
            << out;
    }
};

} // namespace

TEST_F(MultiPlaneOnBus, NicctlShowListsThePlanes)
{
    std::string out;
    ASSERT_TRUE(test::waitFor(
        [&] {
            out = nicctl({"show", "mlx5_0"}).second;
            return out.find("planes:") != std::string::npos;
        },
        15s))
        << out << log();
    EXPECT_NE(out.find("planes:      4 (smi0; a plane's state is the port's)"), std::string::npos)
        << out;
    for (int plane = 1; plane <= 4; ++plane)
        EXPECT_NE(out.find("    plane " + std::to_string(plane) + "    200 Gb/sec (1X XDR)"),
                  std::string::npos)
            << out;
    auto [rc, status] = nicctl({"status"});
    EXPECT_EQ(status.find("smi0"), std::string::npos) << "no row for the SMI device\n" << status;
}
