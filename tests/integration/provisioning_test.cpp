// RoCE QoS provisioning by the real nicd on a simulated node: apply, read back, drift repaired
// (Mode=enforce) or only reported (Mode=verify), dry runs that change nothing, ports that come
// up, a driver that is not ready (Apply and Verify over D-Bus: provisioning_dbus_test.cpp).
#include "support/provisioning_fixture.hpp"

#include <fcntl.h>
#include <nlohmann/json.hpp>
#include <signal.h>
#include <sys/stat.h>
#include <systemd/sd-bus.h>
#include <unistd.h>

#include <fstream>
#include <regex>
#include <set>
#include <thread>

#include <gtest/gtest.h>

using namespace nicd;
using namespace std::chrono_literals;
namespace fs = std::filesystem;

namespace {

using test::ProvisioningTest;

TEST_F(ProvisioningTest, EnforceAppliesReadsBackAndRepairsDrift)
{
    ASSERT_NE(dcb("ens1f0np0").find("pfc_en=0\n"), std::string::npos) << "a fresh NIC";
    writeConfig("[textfile]\nCounters=all\n"); // nicd_qos_changes_total: the writes
    start();
    ASSERT_TRUE(waitForText(compliant("mlx5_0", "pfc", 1))) << log() << textfile();
    EXPECT_NE(textfile().find(compliant("mlx5_0", "trust", 1)), std::string::npos);
    EXPECT_NE(textfile().find(compliant("mlx5_0", "roce_tos", 1)), std::string::npos);
    EXPECT_NE(dcb("ens1f0np0").find("pfc_en=8\n"), std::string::npos) << dcb("ens1f0np0");
    EXPECT_NE(dcb("ens1f0np0").find("app=5,3,26\n"), std::string::npos) << "DSCP 26 -> priority 3";
    EXPECT_EQ(tos("mlx5_0"), "106\n");
    // Skipped ports are not touched, and say why.
    EXPECT_NE(textfile().find("nicd_qos_managed{device=\"mlx5_5\",port=\"1\"} 0"),
              std::string::npos);
    EXPECT_EQ(textfile().find("setting=\"pfc\"} 1\nnicd_qos_compliant{device=\"mlx5_4\""),
              std::string::npos);
    EXPECT_FALSE(fs::exists(root_ / "run/nicd-sim/dcb/ens1f0v0") &&
                 dcb("ens1f0v0").find("pfc_en=8") != std::string::npos);
    EXPECT_NE(log().find("mlx5_4 port 1: skipped: InfiniBand port"), std::string::npos) << log();

    // Another tool moves PFC to priority 4 and drops DSCP trust: nicd sees it and puts it back.
    std::string out;
    ASSERT_EQ(test::run({NICD_SIM_BIN, "inject", root_.string(), "qos-drift", "mlx5_0"}, out), 0)
        << out;
    ASSERT_NE(dcb("ens1f0np0").find("pfc_en=16\n"), std::string::npos) << dcb("ens1f0np0");
    EXPECT_TRUE(test::waitFor(
        [&] { return log().find("QoS drift on mlx5_0 port 1") != std::string::npos; }, 15s))
        << log();
    EXPECT_TRUE(test::waitFor(
        [&] { return dcb("ens1f0np0").find("pfc_en=8\n") != std::string::npos; }, 15s))
        << dcb("ens1f0np0");
    // Written twice now: once at start, once to repair; and compliant again.
    EXPECT_TRUE(
        waitForText("nicd_qos_changes_total{device=\"mlx5_0\",port=\"1\",setting=\"pfc\"} 2\n"))
        << textfile();
    EXPECT_NE(textfile().find(compliant("mlx5_0", "pfc", 1)), std::string::npos);
}

TEST_F(ProvisioningTest, VerifyModeReportsAndChangesNothing)
{
    writeConfig("Mode=verify\n");
    auto before = dcb("ens2f0np0");
    start();
    ASSERT_TRUE(waitForText(compliant("mlx5_1", "pfc", 0))) << log() << textfile();
    EXPECT_NE(textfile().find(compliant("mlx5_1", "trust", 0)), std::string::npos);
    EXPECT_NE(log().find("QoS on mlx5_1 port 1 is not compliant"), std::string::npos) << log();
    std::this_thread::sleep_for(1s);
    EXPECT_EQ(dcb("ens2f0np0"), before);
    EXPECT_NE(tos("mlx5_1"), "106\n");
}

TEST_F(ProvisioningTest, DryRunSaysWhatWouldChangeAndChangesNothing)
{
    writeConfig("");
    auto before = dcb("ens1f0np0");
    std::string out;
    ASSERT_EQ(test::run(nicd({"--once", "--dry-run"}), out), 0) << out;
    EXPECT_NE(out.find("QoS (Mode=enforce, dry run)"), std::string::npos) << out;
    EXPECT_TRUE(std::regex_search(out, std::regex(R"(pfc +want 3 +have none +DIFFERS)"))) << out;
    EXPECT_EQ(dcb("ens1f0np0"), before);
    EXPECT_FALSE(fs::exists(root_ / "sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_tos") &&
                 tos("mlx5_0") == "106\n");
    // The same from the configuration file.
    writeConfig("DryRun=yes\n");
    ASSERT_EQ(test::run(nicd({"--once"}), out), 0) << out;
    EXPECT_EQ(dcb("ens1f0np0"), before);
}

// nicd --once as a report: a repair says what the NIC had ("pfc none -> 3 (repaired)"), a second
// run finds every port compliant and lists none of them; --json carries the same.
TEST_F(ProvisioningTest, OnceReportsARepairWithWhatTheNicHadAndThenOnlyASummary)
{
    writeConfig("");
    std::string out;
    ASSERT_EQ(test::run(nicd({"--once"}), out), 0) << out;
    EXPECT_TRUE(std::regex_search(out, std::regex(R"(\n    pfc +none -> 3 \(repaired\)\n)")))
        << out;
    EXPECT_TRUE(std::regex_search(
        out, std::regex(R"(QoS \(Mode=enforce\): [0-9]+ ports compliant \([0-9]+ repaired\))")))
        << out;
    ASSERT_EQ(test::run(nicd({"--once"}), out), 0) << out;
    EXPECT_EQ(out.find("(repaired)"), std::string::npos)
        << "nothing to repair the second time: " << out;
    EXPECT_EQ(out.find(" port 1: compliant\n"), std::string::npos)
        << "compliant ports not listed: " << out;
    EXPECT_NE(out.find("\nsummary: "), std::string::npos) << out;
    std::string json;
    ASSERT_EQ(test::run(nicd({"--once", "--json", "--log-level", "error"}), json), 0) << json;
    auto j = nlohmann::json::parse(json, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << json;
    EXPECT_FALSE(j["qos"]["ports"].empty());
    EXPECT_EQ(j["qos"]["ports"][0]["settings"][0]["compliant"], true) << j["qos"].dump();
    EXPECT_TRUE(j["textfile"].is_string());
}

TEST_F(ProvisioningTest, APortThatComesUpIsProvisioned)
{
    writeConfig("");
    start();
    ASSERT_TRUE(waitForText(compliant("mlx5_0", "pfc", 1))) << log();
    EXPECT_EQ(textfile().find("nicd_qos_compliant{device=\"mlx5_6\""), std::string::npos);
    sim::linkUp(root_, "mlx5_6", 1);
    EXPECT_TRUE(waitForText(compliant("mlx5_6", "pfc", 1))) << log();
    EXPECT_NE(dcb("ens6f0np0").find("pfc_en=8\n"), std::string::npos);
}

TEST_F(ProvisioningTest, ADeviceThatReRegistersGetsItsTosBack)
{
    writeConfig("");
    start();
    ASSERT_TRUE(waitForText(compliant("mlx5_2", "roce_tos", 1))) << log();
    // The driver reloads: the device goes, the kernel drops its rdma_cm configfs group (ToS back
    // to 0 when it comes back), the device returns.
    sim::remove(root_, "mlx5_2");
    ASSERT_TRUE(test::waitFor(
        [&] { return textfile().find("nicd_qos_managed{device=\"mlx5_2\"") == std::string::npos; },
        10s));
    fs::remove_all(root_ / "sys/kernel/config/rdma_cm/mlx5_2");
    sim::restore(root_, "mlx5_2");
    EXPECT_TRUE(test::waitFor([&] { return tos("mlx5_2") == "106\n"; }, 10s)) << log();
    EXPECT_TRUE(waitForText(compliant("mlx5_2", "roce_tos", 1))) << log();
}

TEST_F(ProvisioningTest, BondsConfigureProvisionsTheLagMembersAndTheLagDevicesTos)
{
    auto before = dcb("ens5f0np0");
    std::string out;
    writeConfig("");
    ASSERT_EQ(test::run(nicd({"--once"}), out), 0) << out;
    EXPECT_NE(out.find("mlx5_bond_0 port 1: skipped: RoCE LAG device (Bonds=skip)"),
              std::string::npos)
        << out;
    EXPECT_EQ(dcb("ens5f0np0"), before) << "Bonds=skip leaves the members alone";

    writeConfig("Bonds=configure\n");
    ASSERT_EQ(test::run(nicd({"--once"}), out), 0) << out;
    EXPECT_NE(out.find("mlx5_bond_0 port 1: compliant"), std::string::npos) << out;
    for (const char* member : {"ens5f0np0", "ens5f1np1"}) {
        EXPECT_NE(dcb(member).find("pfc_en=8\n"), std::string::npos) << member;
        EXPECT_NE(dcb(member).find("app=5,3,26\n"), std::string::npos) << member;
    }
    EXPECT_EQ(tos("mlx5_bond_0"), "106\n");
    EXPECT_FALSE(fs::exists(root_ / "run/nicd-sim/dcb/bond0")) << "the bond itself has no DCB";
}

TEST_F(ProvisioningTest, TheDefaultRouteNetdevIsLeftAloneUnlessIncluded)
{
    // Make ens1f0np0 the management NIC: it carries the default route.
    std::ofstream(root_ / "proc/net/route")
        << "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n"
        << "ens1f0np0\t00000000\t0100A8C0\t0003\t0\t0\t100\t00000000\t0\t0\t0\n";
    auto before = dcb("ens1f0np0");
    std::string out;
    writeConfig("");
    // Fatal: the compute NIC made management leaves the node short of compute ports.
    ASSERT_EQ(test::run(nicd({"--once"}), out), 2) << out;
    EXPECT_NE(out.find("mlx5_0 port 1: skipped: netdev ens1f0np0 carries the default route"),
              std::string::npos)
        << out;
    EXPECT_EQ(dcb("ens1f0np0"), before);
    writeConfig("IncludeNetdevs=ens1f0*\n");
    ASSERT_EQ(test::run(nicd({"--once"}), out), 0) << out;
    EXPECT_NE(out.find("mlx5_0 port 1: compliant"), std::string::npos) << out;
}

// A DCB request that never returns (a wedged driver holding rtnl) is left behind after
// 5 x DriverTimeoutMs: collection goes on, the device is reported, and once the call returns
// the port is provisioned like the others.
TEST_F(ProvisioningTest, AQosCallThatHangsIsLeftBehindAndTheDaemonGoesOn)
{
    writeConfig("[health]\nDriverTimeoutMs=200\n");
    auto dcb_file = root_ / "run/nicd-sim/dcb/ens3f0np0";
    auto content = dcb("ens3f0np0");
    fs::remove(dcb_file);
    ASSERT_EQ(mkfifo(dcb_file.c_str(), 0600), 0); // reading it blocks until someone writes
    start();
    ASSERT_TRUE(test::waitFor(
        [&] { return log().find("did not return within 1000 ms") != std::string::npos; }, 10s))
        << log();
    ASSERT_TRUE(waitForText("code=\"driver_unresponsive\"")) << log();
    EXPECT_NE(textfile().find("nicd_device_health{device=\"mlx5_2\"} 2"), std::string::npos);
    auto cycles = [&] { return test::cyclesIn(textfile()); };
    auto before = cycles();
    EXPECT_TRUE(test::waitFor([&] { return cycles() >= before + 3; }, 5s)) << "collection goes on";

    // The driver answers again: every read of the FIFO gets the state (the plugin reads it more
    // than once) until the plugin's first write replaces it with a file; the call returns, and
    // the port is provisioned.
    ASSERT_TRUE(test::waitFor(
        [&] {
            if (!fs::is_fifo(dcb_file))
                return true;
            int fd = open(dcb_file.c_str(), O_WRONLY | O_NONBLOCK); // ENXIO: no reader yet
            if (fd >= 0) {
                EXPECT_EQ(write(fd, content.data(), content.size()),
                          static_cast<ssize_t>(content.size()));
                close(fd);
            }
            return false;
        },
        10s));
    EXPECT_TRUE(waitForText(compliant("mlx5_2", "pfc", 1), 20s)) << log();
    EXPECT_TRUE(waitForText("nicd_device_health{device=\"mlx5_2\"} 0", 10s)) << log();
}

TEST_F(ProvisioningTest, AConfiguredDeviceThatNeverAppearsIsAnErrorAfterTheTimeout)
{
    writeConfig("ReadyTimeoutSec=1\n[device:mlx5_9]\nRoceTos=96\n");
    start();
    ASSERT_TRUE(waitForText(compliant("mlx5_0", "pfc", 1))) << log();
    EXPECT_TRUE(test::waitFor(
        [&] {
            return log().find("mlx5_9 is configured in [device:mlx5_9] but did not appear within "
                              "1 s") != std::string::npos;
        },
        10s))
        << log();
    std::this_thread::sleep_for(1s);
    auto l = log();
    EXPECT_EQ(l.find("did not appear"), l.rfind("did not appear")) << "reported once: " << l;
}

TEST_F(ProvisioningTest, ADriverThatIsNotReadyIsAClearErrorNotAHang)
{
    writeConfig("DriverReadyFile=/run/mellanox/drivers/.driver-ready\nReadyTimeoutSec=1\n");
    start();
    ASSERT_NO_FATAL_FAILURE(expectDriverNotReadyLogged("/run/mellanox/drivers/.driver-ready"));
    EXPECT_NE(textfile().find("\nnicd_up 1\n"), std::string::npos) << "monitoring goes on";
    EXPECT_EQ(textfile().find("nicd_qos_compliant{"), std::string::npos);
    // The driver container finishes: provisioning starts on its own.
    fs::create_directories(root_ / "run/mellanox/drivers");
    std::ofstream(root_ / "run/mellanox/drivers/.driver-ready");
    EXPECT_TRUE(waitForText(compliant("mlx5_0", "pfc", 1))) << log();
}

} // namespace
