// RoCE QoS provisioning by the real nicd on a simulated node: apply, read back, drift repaired
// (Mode=enforce) or only reported (Mode=verify), dry runs that change nothing, ports that come
// up, a driver that is not ready, and Apply/Verify over D-Bus through nicctl.
#include "sim.hpp"
#include "support/private_bus.hpp"
#include "support/process.hpp"

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

class ProvisioningTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
        dir_ = fs::temp_directory_path() / ("nicd-qos-" + std::to_string(getpid()) + "-" + name);
        fs::remove_all(dir_);
        fs::create_directories(dir_);
        root_ = dir_ / "node";
        sim::create(root_, {});
    }
    void TearDown() override
    {
        nicd_.reset();
        bus_.reset();
        fs::remove_all(dir_);
    }

    void writeConfig(const std::string& provision, int verify_interval_sec = 5)
    {
        std::ofstream(dir_ / "nicd.conf")
            << "[daemon]\nPollIntervalMs=200\nPmaIntervalMs=1000\n"
            << "[provision]\nVerifyIntervalSec=" << verify_interval_sec << "\n"
            << provision;
    }
    std::vector<std::string> nicd(std::vector<std::string> extra) const
    {
        std::vector<std::string> a{
            NICD_BIN,       "--plugin-directory", NICD_BUILD_PLUGIN_DIR,        "--root",
            root_.string(), "--config",           (dir_ / "nicd.conf").string()};
        a.insert(a.end(), extra.begin(), extra.end());
        return a;
    }
    void start(std::vector<std::string> extra = {"--no-dbus"})
    {
        nicd_ = std::make_unique<test::Process>(nicd(extra), std::map<std::string, std::string>{},
                                                dir_ / "nicd.log");
    }
    std::string log() const { return test::readFile(dir_ / "nicd.log"); }
    std::string textfile() const
    {
        return test::readFile(root_ / "var/lib/prometheus/node-exporter/nicd.prom");
    }
    std::string dcb(const std::string& netdev) const
    {
        return test::readFile(root_ / "run/nicd-sim/dcb" / netdev);
    }
    std::string tos(const std::string& ibdev) const
    {
        return test::readFile(root_ / "sys/kernel/config/rdma_cm" / ibdev /
                              "ports/1/default_roce_tos");
    }
    static std::string compliant(const std::string& dev, const std::string& setting, int value)
    {
        return "nicd_qos_compliant{device=\"" + dev + "\",port=\"1\",setting=\"" + setting +
               "\"} " + std::to_string(value) + "\n";
    }
    bool waitForText(const std::string& what, std::chrono::milliseconds timeout = 10s) const
    {
        return test::waitFor([&] { return textfile().find(what) != std::string::npos; }, timeout);
    }

    fs::path dir_, root_;
    std::unique_ptr<test::PrivateBus> bus_;
    std::unique_ptr<test::Process> nicd_;
};

TEST_F(ProvisioningTest, EnforceAppliesReadsBackAndRepairsDrift)
{
    ASSERT_NE(dcb("ens1f0np0").find("pfc_en=0\n"), std::string::npos) << "a fresh NIC";
    writeConfig("");
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
    ASSERT_EQ(test::run(nicd({"--no-dbus", "--once", "--dry-run"}), out), 0) << out;
    EXPECT_NE(out.find("QoS (Mode=enforce, dry run)"), std::string::npos) << out;
    EXPECT_TRUE(std::regex_search(out, std::regex(R"(pfc +want 3 +have none +DIFFERS)"))) << out;
    EXPECT_EQ(dcb("ens1f0np0"), before);
    EXPECT_FALSE(fs::exists(root_ / "sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_tos") &&
                 tos("mlx5_0") == "106\n");
    // The same from the configuration file.
    writeConfig("DryRun=yes\n");
    ASSERT_EQ(test::run(nicd({"--no-dbus", "--once"}), out), 0) << out;
    EXPECT_EQ(dcb("ens1f0np0"), before);
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
    ASSERT_EQ(test::run(nicd({"--no-dbus", "--once"}), out), 0) << out;
    EXPECT_NE(out.find("mlx5_bond_0 port 1: skipped: RoCE LAG device (Bonds=skip)"),
              std::string::npos)
        << out;
    EXPECT_EQ(dcb("ens5f0np0"), before) << "Bonds=skip leaves the members alone";

    writeConfig("Bonds=configure\n");
    ASSERT_EQ(test::run(nicd({"--no-dbus", "--once"}), out), 0) << out;
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
    ASSERT_EQ(test::run(nicd({"--no-dbus", "--once"}), out), 0) << out;
    EXPECT_NE(out.find("mlx5_0 port 1: skipped: netdev ens1f0np0 carries the default route"),
              std::string::npos)
        << out;
    EXPECT_EQ(dcb("ens1f0np0"), before);
    writeConfig("IncludeNetdevs=ens1f0*\n");
    ASSERT_EQ(test::run(nicd({"--no-dbus", "--once"}), out), 0) << out;
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
    auto cycles = [&] {
        std::smatch m;
        auto t = textfile();
        return std::regex_search(t, m, std::regex(R"(\nnicd_cycles_total (\d+)\n)"))
                   ? std::stoul(m[1])
                   : 0UL;
    };
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
    ASSERT_TRUE(
        test::waitFor([&] { return log().find("driver not ready: ") != std::string::npos; }, 10s))
        << log();
    EXPECT_NE(log().find("/run/mellanox/drivers/.driver-ready still missing after 1 s"),
              std::string::npos)
        << log();
    EXPECT_NE(textfile().find("\nnicd_up 1\n"), std::string::npos) << "monitoring goes on";
    EXPECT_EQ(textfile().find("nicd_qos_compliant{"), std::string::npos);
    // The driver container finishes: provisioning starts on its own.
    fs::create_directories(root_ / "run/mellanox/drivers");
    std::ofstream(root_ / "run/mellanox/drivers/.driver-ready");
    EXPECT_TRUE(waitForText(compliant("mlx5_0", "pfc", 1))) << log();
}

TEST_F(ProvisioningTest, ApplyAndVerifyOverDbus)
{
    writeConfig("Mode=verify\n");
    bus_ = std::make_unique<test::PrivateBus>(dir_ / "bus");
    start({"--bus", bus_->address()});
    auto nicctl = [&](std::vector<std::string> args) {
        args.insert(args.begin(), {NICCTL_BIN, "--bus", bus_->address()});
        std::string out;
        int rc = test::run(args, out);
        return std::make_pair(rc, out);
    };
    ASSERT_TRUE(test::waitFor([&] { return nicctl({"verify"}).first != 3; }, 15s))
        << nicctl({"verify"}).second << log();
    auto [rc, out] = nicctl({"--json", "verify"});
    ASSERT_EQ(rc, 1) << "a fresh node is not compliant: " << out;
    auto rows = nlohmann::json::parse(out);
    bool saw = false;
    for (const auto& r : rows)
        if (r["device"] == "mlx5_2" && r["setting"] == "pfc") {
            saw = true;
            EXPECT_EQ(r["desired"], "3");
            EXPECT_EQ(r["observed"], "none");
            EXPECT_FALSE(r["compliant"].get<bool>());
            EXPECT_FALSE(r["changed"].get<bool>());
        }
    EXPECT_TRUE(saw) << out;
    // ECN beside the others: both points read back as off on the fresh driver.
    std::set<std::string> ecn;
    for (const auto& r : rows)
        if (r["device"] == "mlx5_2" && r["setting"].get<std::string>().starts_with("ecn_"))
            ecn.insert(r["setting"].get<std::string>() + " " + r["desired"].get<std::string>() +
                       " " + r["observed"].get<std::string>());
    EXPECT_EQ(ecn, (std::set<std::string>{"ecn_np 3 none", "ecn_rp 3 none"})) << out;
    // Mode=verify: Apply reads but never writes, so the ports stay noncompliant.
    auto [arc, apply] = nicctl({"apply"});
    EXPECT_EQ(arc, 1) << apply;
    EXPECT_NE(dcb("ens3f0np0").find("pfc_en=0\n"), std::string::npos);
    // The port's D-Bus object carries the outcome.
    std::string prop;
    test::run({"busctl", "--address=" + bus_->address(), "get-property", "io.nicd.Nicd1",
               "/io/nicd/Nicd1/device/mlx5_2/port/1", "io.nicd.Nicd1.Port", "QosStatus"},
              prop);
    EXPECT_EQ(prop, "s \"noncompliant\"\n");
    test::run({"busctl", "--address=" + bus_->address(), "get-property", "io.nicd.Nicd1",
               "/io/nicd/Nicd1/device/mlx5_2/port/1", "io.nicd.Nicd1.Port", "QosObserved"},
              prop);
    EXPECT_NE(prop.find("\"ecn_np\" \"none\""), std::string::npos) << prop;
    test::run({"busctl", "--address=" + bus_->address(), "get-property", "io.nicd.Nicd1",
               "/io/nicd/Nicd1/device/mlx5_5/port/1", "io.nicd.Nicd1.Port", "QosStatus"},
              prop);
    EXPECT_EQ(prop, "s \"skipped: virtual function (QoS belongs to its PF)\"\n");
}

// Clients calling Verify all at once (or in a loop) are answered, and the rounds they cause stay
// bounded: calls made while a verify round waits to start share it, so the worker that also runs
// the collection cycles is never queued a round per caller. The calls go out together on one
// connection (sd-bus, asynchronously), so they reach nicd while the first round runs.
TEST_F(ProvisioningTest, ManyVerifyCallsAtOnceShareRounds)
{
    // No periodic round in the count: on a busy machine the calls and the wait for the next
    // publish can outlast a 5 s VerifyIntervalSec.
    writeConfig("Mode=verify\n", 3600);
    bus_ = std::make_unique<test::PrivateBus>(dir_ / "bus");
    start({"--bus", bus_->address()});
    std::string out;
    ASSERT_TRUE(test::waitFor(
        [&] {
            return test::run({NICCTL_BIN, "--bus", bus_->address(), "verify"}, out) == 1;
        },
        15s))
        << out << log();
    auto verifyRounds = [&] {
        std::smatch m;
        auto text = textfile();
        static const std::regex re(R"(nicd_qos_rounds_total\{kind="verify"\} (\d+)\n)");
        return std::regex_search(text, m, re) ? std::stoi(m[1]) : -1;
    };
    ASSERT_TRUE(test::waitFor([&] { return verifyRounds() >= 1; }, 5s)) << textfile();
    int before = verifyRounds();

    sd_bus* bus = nullptr;
    ASSERT_GE(sd_bus_new(&bus), 0);
    std::unique_ptr<sd_bus, decltype(&sd_bus_flush_close_unref)> owned(bus,
                                                                       &sd_bus_flush_close_unref);
    ASSERT_GE(sd_bus_set_address(bus, bus_->address().c_str()), 0);
    ASSERT_GE(sd_bus_set_bus_client(bus, 1), 0);
    ASSERT_GE(sd_bus_start(bus), 0);
    struct Answers {
        int replies = 0;
        int errors = 0;
        std::string first_error;
    } answers;
    constexpr int kCalls = 12;
    for (int i = 0; i < kCalls; ++i) {
        sd_bus_message* call = nullptr;
        ASSERT_GE(sd_bus_message_new_method_call(bus, &call, "io.nicd.Nicd1", "/io/nicd/Nicd1",
                                                 "io.nicd.Nicd1.Manager", "Verify"),
                  0);
        int r = sd_bus_call_async(
            bus, nullptr, call,
            [](sd_bus_message* m, void* data, sd_bus_error*) -> int {
                auto* a = static_cast<Answers*>(data);
                if (sd_bus_message_is_method_error(m, nullptr)) {
                    if (a->errors++ == 0)
                        a->first_error = sd_bus_message_get_error(m)->message;
                } else {
                    ++a->replies;
                }
                return 0;
            },
            &answers, 30'000'000);
        sd_bus_message_unref(call);
        ASSERT_GE(r, 0);
    }
    auto deadline = std::chrono::steady_clock::now() + 30s;
    while (answers.replies + answers.errors < kCalls && std::chrono::steady_clock::now() < deadline)
        if (sd_bus_process(bus, nullptr) == 0)
            sd_bus_wait(bus, 100'000);
    EXPECT_EQ(answers.replies, kCalls)
        << answers.errors << " errors, first: " << answers.first_error;

    // The textfile shows the rounds with the next publish.
    ASSERT_TRUE(test::waitFor([&] { return verifyRounds() > before; }, 5s)) << textfile();
    std::this_thread::sleep_for(500ms);
    int rounds = verifyRounds() - before;
    EXPECT_LE(rounds, 2) << kCalls << " calls at once made " << rounds << " verify rounds";
}

TEST_F(ProvisioningTest, DryRunApplyOverDbusInEnforceMode)
{
    writeConfig("");
    bus_ = std::make_unique<test::PrivateBus>(dir_ / "bus");
    start({"--bus", bus_->address()});
    ASSERT_TRUE(waitForText(compliant("mlx5_0", "pfc", 1))) << log();
    std::string out;
    ASSERT_EQ(test::run({NICD_SIM_BIN, "inject", root_.string(), "qos-drift", "mlx5_3"}, out), 0);
    auto drifted = dcb("ens4f0np0");
    ASSERT_EQ(test::run({NICCTL_BIN, "--bus", bus_->address(), "apply", "--dry-run"}, out), 0)
        << out;
    EXPECT_TRUE(
        std::regex_search(out, std::regex(R"(mlx5_3/1 +pfc +3 +4 +noncompliant, would change)")))
        << out;
    EXPECT_EQ(dcb("ens4f0np0"), drifted) << "a dry run writes nothing";
    ASSERT_EQ(test::run({NICCTL_BIN, "--bus", bus_->address(), "apply"}, out), 0) << out;
    EXPECT_TRUE(std::regex_search(out, std::regex(R"(mlx5_3/1 +pfc +3 +3 +compliant, changed)")))
        << out;
    EXPECT_NE(dcb("ens4f0np0").find("pfc_en=8\n"), std::string::npos);
}

} // namespace
