// The node-problem-detector monitor (etc/npd): its JSON is the custom plugin monitor NPD reads,
// pointing at the installed check; the check, run as NPD runs it (under a timeout, exit code 0 OK
// / 1 problem / 2 unknown, output cut to max_output_length), against nicd on a private bus: OK on
// a healthy node, OK but saying so on a degraded one, a problem naming the device, port, action
// and reason when a compute NIC is fatal, unknown when nicd cannot be asked.
#include "sim.hpp"
#include "support/bus_fixture.hpp"

#include <nlohmann/json.hpp>
#include <signal.h>

#include <gtest/gtest.h>

using namespace nicd;
using namespace std::chrono_literals;
namespace fs = std::filesystem;

namespace {

class NpdMonitorTest : public test::NicdOnBusTest {
protected:
    std::string extraConfig() const override
    {
        return "[provision]\nMode=off\n[signals]\nIntervalSec=1\n";
    }
    // {exit code, output} as NPD sees them.
    std::pair<int, std::string> check() const
    {
        std::string out;
        int rc = test::run({"timeout", "10", "env", std::string("NICCTL=") + NICCTL_BIN,
                            (fs::path(NICD_SOURCE_DIR) / "etc/npd/nicd-npd-check").string(),
                            "--bus", bus_->address()},
                           out, 15s);
        return {rc, out};
    }
    nlohmann::json monitor() const
    {
        return nlohmann::json::parse(
            test::readFile(fs::path(NICD_SOURCE_DIR) / "etc/npd/nicd-monitor.json"));
    }
};

} // namespace

TEST_F(NpdMonitorTest, TheMonitorIsACustomPluginForTheInstalledCheck)
{
    auto m = monitor();
    EXPECT_EQ(m["plugin"], "custom");
    EXPECT_EQ(m["pluginConfig"]["max_output_length"], 80);
    ASSERT_EQ(m["rules"].size(), 1U);
    EXPECT_EQ(m["rules"][0]["type"], "permanent");
    EXPECT_EQ(m["rules"][0]["condition"], m["conditions"][0]["type"]);
    EXPECT_EQ(m["rules"][0]["path"], "/usr/share/nicd/npd/nicd-npd-check");
}

TEST_F(NpdMonitorTest, HealthyDegradedFatalAndUnknown)
{
    auto max = monitor()["pluginConfig"]["max_output_length"].get<size_t>();
    ASSERT_TRUE(test::waitFor([&] { return check().first == 0; }, 15s)) << check().second;
    EXPECT_EQ(check().second, "nicd: RDMA NICs healthy\n");

    // A degraded storage NIC: the node still trains.
    std::string out;
    ASSERT_EQ(test::run({NICD_SIM_BIN, "inject", root_.string(), "asic-hot", "mlx5_4"}, out), 0);
    ASSERT_TRUE(
        test::waitFor([&] { return check().second.find("degraded") != std::string::npos; }, 15s))
        << check().second;
    auto [drc, degraded] = check();
    EXPECT_EQ(drc, 0) << degraded;
    EXPECT_NE(degraded.find("nicd: degraded: mlx5_4/"), std::string::npos) << degraded;
    EXPECT_LE(degraded.size(), max + 1) << degraded;

    // A compute NIC's link goes down: the node condition.
    sim::linkDown(root_, "mlx5_1", 1);
    ASSERT_TRUE(test::waitFor([&] { return check().first == 1; }, 15s)) << check().second;
    auto [frc, fatal] = check();
    EXPECT_NE(fatal.find("nicd: fatal: mlx5_1/1 check_cable: "), std::string::npos) << fatal;
    EXPECT_LE(fatal.size(), max + 1) << fatal;
    EXPECT_EQ(fatal.find('\n'), fatal.size() - 1) << "one line";

    nicd_->signal(SIGTERM);
    ASSERT_EQ(nicd_->wait(10s), 0);
    auto [urc, unknown] = check();
    EXPECT_EQ(urc, 2) << unknown;
    EXPECT_NE(unknown.find("nicd: cannot ask nicd"), std::string::npos) << unknown;
}

namespace {
// Nine compute ports expected on a node of four: the node itself is fatal, and no row of the
// status table says so.
class NpdNodeShortTest : public NpdMonitorTest {
protected:
    std::string extraConfig() const override
    {
        return NpdMonitorTest::extraConfig() + "[health]\nExpectPorts=compute:9\n";
    }
};
} // namespace

TEST_F(NpdNodeShortTest, AShortNodeIsAProblemNamedByItsCode)
{
    ASSERT_TRUE(test::waitFor([&] { return check().first == 1; }, 15s)) << check().second;
    auto [rc, out] = check();
    EXPECT_EQ(out, "nicd: fatal: node reseat_nic: inventory_short.compute\n") << rc;
}
