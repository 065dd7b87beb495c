// The plugin manager drives plugins per device: a good plugin next to broken ones claims and
// reads devices; a device whose polls fail is backed off, the plugin shows Degraded after
// repeated failures and Running again once the device reads; a partial read is reported but
// not backed off; devices that disappear are detached.
#include "inventory/sysfs_inventory.hpp"
#include "plugins/plugin_manager.hpp"
#include "sim.hpp"
#include "support/temp_dir.hpp"
#include "support/test_plugins.hpp"

#include <fstream>

#include <gtest/gtest.h>

using namespace nicd;
namespace fs = std::filesystem;

namespace {

const PluginStatus* find(const std::vector<PluginStatus>& all, const std::string& name)
{
    for (const auto& s : all)
        if (s.name == name)
            return &s;
    return nullptr;
}

// The one plugin `m` loaded runs, at ABI 1.`minor`.
void expectOneRunning(const plugins::PluginManager& m, uint32_t minor)
{
    auto st = m.statuses();
    ASSERT_EQ(st.size(), 1U);
    ASSERT_EQ(st[0].state, PluginState::Running) << st[0].last_error;
    ASSERT_EQ(st[0].abi_minor, minor);
}

size_t claimedBy(const Inventory& inv, const std::string& plugin)
{
    size_t n = 0;
    for (const auto& d : inv.devices)
        n += d.plugin == plugin ? 1 : 0;
    return n;
}

// A simulated node and the flaky test plugin, steered by marker files per device.
class FlakyPlugin : public test::TempDirTest {
protected:
    void SetUp() override
    {
        TempDirTest::SetUp();
        sim::create(dir_ / "root", {});
        fs::create_directories(dir_ / "fail");
        fs::create_directories(dir_ / "partial");
        Config c;
        c.plugins["flaky"]["FailDir"] = (dir_ / "fail").string();
        c.plugins["flaky"]["PartialDir"] = (dir_ / "partial").string();
        manager_ = std::make_unique<plugins::PluginManager>(HostPaths(dir_ / "root"), c);
        manager_->loadDirectory(test::testPluginDir("poll_fails"));
        inventory_ = inventory::discoverInventory(HostPaths(dir_ / "root"));
        manager_->assign(inventory_);
    }
    void TearDown() override
    {
        manager_.reset();
        TempDirTest::TearDown();
    }
    void mark(const char* kind, const std::string& ibdev, bool on)
    {
        if (on)
            std::ofstream(dir_ / kind / ibdev) << "";
        else
            fs::remove(dir_ / kind / ibdev);
    }
    DeviceSamples poll(const std::string& ibdev)
    {
        DeviceSamples ds;
        manager_->poll(*inventory_.find(ibdev), ds);
        return ds;
    }
    PluginStatus status() const { return manager_->statuses().at(0); }

    std::unique_ptr<plugins::PluginManager> manager_;
    Inventory inventory_;
};

} // namespace

TEST(PluginManager, GoodPluginBesideBrokenOnesManagesDevices)
{
    auto root = test::makeTempDir("mgr");
    sim::create(root, {});
    auto plugins = test::makeTempDir("mgrplugins");
    for (const char* c : {"abi_major", "ctor_throws", "good", "init_fails", "no_symbol",
                          "name_mismatch", "small_struct"})
        for (const auto& e : fs::directory_iterator(test::testPluginDir(c)))
            fs::copy(e.path(), plugins / e.path().filename());
    std::ofstream(plugins / "nicd-plugin-junk.so") << std::string(128, '\0');
    plugins::PluginManager m(HostPaths(root), Config{});
    m.loadDirectory(plugins);
    auto inv = inventory::discoverInventory(HostPaths(root));
    m.assign(inv);

    auto st = m.statuses();
    ASSERT_EQ(st.size(), 8U);
    for (const auto& s : st)
        EXPECT_EQ(s.state == PluginState::Running, s.name == "good") << s.name << s.last_error;
    size_t mlx5_devices = 0;
    for (const auto& d : inv.devices)
        mlx5_devices += d.driver == "mlx5_core" ? 1 : 0;
    ASSERT_GT(mlx5_devices, 1U);
    EXPECT_EQ(claimedBy(inv, "good"), mlx5_devices);
    EXPECT_EQ(find(st, "good")->devices, mlx5_devices);

    DeviceSamples ds;
    m.poll(*inv.find("mlx5_0"), ds);
    ASSERT_EQ(ds.size(), 1U);
    EXPECT_EQ(toSamples(ds)[0].name, "polls");
    EXPECT_TRUE(ds.errors.empty());

    // A device that disappears is detached; its return attaches it again.
    sim::remove(root, "mlx5_0");
    auto inv2 = inventory::discoverInventory(HostPaths(root));
    m.assign(inv2);
    EXPECT_EQ(find(m.statuses(), "good")->devices, mlx5_devices - 1);
    EXPECT_EQ(inv2.find("mlx5_0"), nullptr);
    sim::restore(root, "mlx5_0");
    auto inv3 = inventory::discoverInventory(HostPaths(root));
    m.assign(inv3);
    EXPECT_EQ(find(m.statuses(), "good")->devices, mlx5_devices);
    EXPECT_EQ(inv3.find("mlx5_0")->plugin, "good");
    fs::remove_all(root);
    fs::remove_all(plugins);
}

TEST(PluginManager, DevicesNoPluginClaimsStayUnmanaged)
{
    auto root = test::makeTempDir("unmanaged");
    sim::create(root, {});
    plugins::PluginManager m(HostPaths(root), Config{});
    m.loadDirectory(test::testPluginDir("init_fails")); // the only plugin is disabled
    auto inv = inventory::discoverInventory(HostPaths(root));
    m.assign(inv);
    ASSERT_FALSE(inv.devices.empty());
    EXPECT_EQ(claimedBy(inv, ""), inv.devices.size());
    DeviceSamples ds;
    m.poll(inv.devices[0], ds);
    EXPECT_TRUE(ds.empty());
    EXPECT_TRUE(ds.errors.empty());
    plugin::v1::QosReport report;
    auto s = m.verifyQos(inv.devices[0], inv.devices[0].ports.at(0), {}, report);
    EXPECT_EQ(s.code, plugin::v1::Errc::NoDevice);
    EXPECT_NE(s.message.find(inv.devices[0].ibdev), std::string::npos);
    fs::remove_all(root);
}

TEST_F(FlakyPlugin, FailingPollsBackOffDegradeAndRecover)
{
    mark("fail", "mlx5_0", true);
    int attempts = 0;
    for (int i = 0; i < 12; ++i) {
        auto ds = poll("mlx5_0");
        EXPECT_TRUE(ds.empty());
        if (!ds.errors.empty()) {
            ++attempts;
            EXPECT_NE(ds.errors[0].message.find("mlx5_0: simulated read failure"),
                      std::string::npos);
            EXPECT_EQ(ds.errors[0].device, "mlx5_0");
        }
    }
    // Tried on polls 1, 3, 6, 11 (skipping 1, 2, 4 between): backed off, not every cycle.
    EXPECT_EQ(attempts, 4);
    EXPECT_EQ(status().state, PluginState::Degraded);
    EXPECT_EQ(status().consecutive_failures, 4U);
    EXPECT_NE(status().last_error.find("mlx5_0: simulated read failure"), std::string::npos);

    mark("fail", "mlx5_0", false);
    int polls_until_read = 0;
    for (; polls_until_read < 70; ++polls_until_read)
        if (!poll("mlx5_0").empty())
            break;
    EXPECT_LE(polls_until_read, 8) << "backoff after 4 failures skips 8 polls";
    EXPECT_EQ(status().state, PluginState::Running);
    EXPECT_EQ(status().consecutive_failures, 0U);
    EXPECT_TRUE(status().last_error.empty());
    // Once it reads, it is polled every time again.
    for (int i = 0; i < 3; ++i)
        EXPECT_FALSE(poll("mlx5_0").empty());
}

TEST_F(FlakyPlugin, OneFailingDeviceDegradesThePluginWhileOthersRead)
{
    mark("fail", "mlx5_1", true);
    for (int cycle = 0; cycle < 8; ++cycle) {
        EXPECT_FALSE(poll("mlx5_0").empty()) << "a healthy device is never backed off";
        poll("mlx5_1");
    }
    EXPECT_EQ(status().state, PluginState::Degraded)
        << "successes on mlx5_0 must not hide mlx5_1's failures";
    EXPECT_NE(status().last_error.find("mlx5_1"), std::string::npos);
}

TEST_F(FlakyPlugin, PartialReadIsReportedButNotBackedOff)
{
    mark("partial", "mlx5_0", true);
    for (int i = 0; i < 6; ++i) {
        auto ds = poll("mlx5_0");
        ASSERT_EQ(ds.size(), 1U) << "polled every time";
        ASSERT_EQ(ds.errors.size(), 1U);
        EXPECT_NE(ds.errors[0].message.find("simulated partial read"), std::string::npos);
    }
    EXPECT_EQ(status().state, PluginState::Running);
}

TEST_F(FlakyPlugin, ConfigReachesThePluginAndDisabledPluginsAreNotLoaded)
{
    // FailDir reached the plugin through IHost::config (the other tests depend on it); here
    // Enabled=no keeps the same plugin from loading at all.
    Config c;
    c.plugins["flaky"]["Enabled"] = "no";
    plugins::PluginManager m(HostPaths(dir_ / "root"), c);
    m.loadDirectory(test::testPluginDir("poll_fails"));
    auto inv = inventory::discoverInventory(HostPaths(dir_ / "root"));
    m.assign(inv);
    EXPECT_EQ(m.statuses().at(0).state, PluginState::Disabled);
    EXPECT_EQ(claimedBy(inv, "flaky"), 0U);
}

// A plugin of ABI 1.3 classifies single lines without knowing where they came from: it is given
// only the lines the kernel printed about a device, never a device-less one (a segfault report
// naming a driver error), and never asked through the newer entry point its vtable lacks.
TEST(PluginManagerKernelLines, AnOlderPluginSeesOnlyLinesAboutADevice)
{
    plugins::PluginManager manager(HostPaths("/nonexistent"), Config{});
    manager.loadDirectory(test::testPluginDir("kernel_v13"));
    ASSERT_NO_FATAL_FAILURE(expectOneRunning(manager, 3));
    const std::string text = "mlx5_core 0000:3b:00.0: poll_health:694:(pid 0): Fatal error 1";
    plugin::v1::KernelLineMatch m;
    EXPECT_FALSE(manager.classifyKernelRecord({"prog[1]: segfault at 0 in " + text, {}, {}}, m));
    EXPECT_FALSE(manager.classifyKernelRecord({text, {}, {}}, m));
    ASSERT_TRUE(manager.classifyKernelRecord({text, "pci", "0000:3b:00.0"}, m));
    EXPECT_EQ(m.code, "test.fatal");
}

// A plugin of ABI 1.5 is asked about multi-line reports and named as the one that recognised it;
// one whose descriptor says 1.4 still loads and runs, and is never asked (its vtable, were it
// really built for 1.4, would end before classifyKernelReport).
TEST(PluginManagerKernelReports, OnlyAPluginOfAbi15IsAskedAboutReports)
{
    const std::vector<std::string> lines{" some_frame+0x1f/0x2a0"};
    const plugin::v1::KernelReport report{"soft_lockup", "BUG: soft lockup - CPU#3", lines};

    plugins::PluginManager old_manager(HostPaths("/nonexistent"), Config{});
    old_manager.loadDirectory(test::testPluginDir("kernel_reports_v14"));
    ASSERT_NO_FATAL_FAILURE(expectOneRunning(old_manager, 4));
    std::string name;
    plugin::v1::KernelLineMatch m;
    EXPECT_FALSE(old_manager.classifyKernelReport(report, name, m));
    EXPECT_TRUE(name.empty());

    plugins::PluginManager manager(HostPaths("/nonexistent"), Config{});
    manager.loadDirectory(test::testPluginDir("kernel_reports"));
    ASSERT_NO_FATAL_FAILURE(expectOneRunning(manager, NICD_PLUGIN_ABI_MINOR));
    ASSERT_TRUE(manager.classifyKernelReport(report, name, m));
    EXPECT_EQ(name, "reports");
    EXPECT_EQ(m.code, "test.report");
    EXPECT_EQ(m.message, "soft_lockup: BUG: soft lockup - CPU#3");
}
