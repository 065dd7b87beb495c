// The loader refuses every kind of broken plugin with a precise reason, contains a plugin that
// fails at creation or init, backs off a plugin whose polls fail, and keeps the good ones running.
#include "inventory/sysfs_inventory.hpp"
#include "plugins/plugin_loader.hpp"
#include "plugins/plugin_manager.hpp"
#include "sim.hpp"
#include "support/temp_dir.hpp"

#include <fstream>

#include <gtest/gtest.h>

using namespace nicd;
namespace fs = std::filesystem;

namespace {

fs::path caseDir(const std::string& c)
{
    return fs::path(NICD_TEST_PLUGIN_DIR) / c;
}

PluginStatus loadOne(const std::string& c, const Config& config = {})
{
    PluginManager m(HostPaths("/"), config);
    m.loadDirectory(caseDir(c));
    auto st = m.statuses();
    EXPECT_EQ(st.size(), 1U) << c;
    return st.empty() ? PluginStatus{} : st[0];
}

void expectRefused(const std::string& c, PluginState state, const std::string& reason)
{
    auto st = loadOne(c);
    EXPECT_EQ(st.state, state) << c << ": " << st.last_error;
    EXPECT_NE(st.last_error.find(reason), std::string::npos) << c << ": " << st.last_error;
}

} // namespace

TEST(PluginLoader, GoodPluginRuns)
{
    auto st = loadOne("good");
    EXPECT_EQ(st.state, PluginState::Running) << st.last_error;
    EXPECT_EQ(st.name, "good");
    EXPECT_EQ(st.version, "0.0.1");
    EXPECT_EQ(st.abi_major, 1U);
}

TEST(PluginLoader, EachBrokenPluginIsRefusedWithAPreciseReason)
{
    expectRefused("abi_major", PluginState::Failed, "plugin ABI major 2 is not supported");
    expectRefused("abi_minor", PluginState::Failed, "newer than this nicd's");
    expectRefused("small_struct", PluginState::Failed,
                  "descriptor is 8 bytes, smaller than ABI 1.0's");
    expectRefused("toolchain", PluginState::Failed, "built with toolchain 'clang99'");
    expectRefused("no_symbol", PluginState::Failed, "no nicd_plugin_entry_v1 symbol");
    expectRefused("name_mismatch", PluginState::Failed,
                  "names the plugin 'other' but the file is named for 'misnamed'");
    expectRefused("ctor_throws", PluginState::Disabled, "create() failed");
    expectRefused("init_fails", PluginState::Disabled,
                  "init failed: no supported hardware found by init");
}

TEST(PluginLoader, FileNameIsInTheReason)
{
    auto st = loadOne("abi_major");
    EXPECT_NE(st.last_error.find((caseDir("abi_major") / "nicd-plugin-major.so").string()),
              std::string::npos);
}

TEST(PluginLoader, GarbageFileFailsWithTheLoadersMessage)
{
    auto dir = test::makeTempDir("garbage");
    std::ofstream(dir / "nicd-plugin-junk.so") << "this is not an ELF file";
    PluginManager m(HostPaths("/"), Config{});
    m.loadDirectory(dir);
    auto st = m.statuses();
    ASSERT_EQ(st.size(), 1U);
    EXPECT_EQ(st[0].state, PluginState::Failed);
    EXPECT_NE(st[0].last_error.find("cannot load"), std::string::npos) << st[0].last_error;
    EXPECT_NE(st[0].last_error.find("check with ldd"), std::string::npos);
    fs::remove_all(dir);
}

TEST(PluginLoader, DisabledInConfigurationIsNotLoaded)
{
    Config c;
    c.plugins["good"]["Enabled"] = "no";
    auto st = loadOne("good", c);
    EXPECT_EQ(st.state, PluginState::Disabled);
    EXPECT_NE(st.last_error.find("Enabled=no"), std::string::npos);
}

TEST(PluginLoader, MissingDirectoryMeansNoPlugins)
{
    PluginManager m(HostPaths("/"), Config{});
    m.loadDirectory("/nonexistent/plugins");
    EXPECT_TRUE(m.statuses().empty());
}

TEST(PluginLoader, DescriptorNameFromFile)
{
    EXPECT_EQ(pluginNameFromFile("/x/nicd-plugin-mlx5.so"), "mlx5");
    EXPECT_EQ(pluginNameFromFile("/x/libmlx5.so"), "");
    EXPECT_EQ(pluginNameFromFile("/x/nicd-plugin-.so"), "");
}

// A good plugin next to broken ones still claims devices and reports samples.
TEST(PluginManager, GoodPluginBesideBrokenOnesManagesDevices)
{
    auto root = test::makeTempDir("mgr");
    sim::create(root, {});
    auto plugins = test::makeTempDir("mgrplugins");
    for (const char* c : {"abi_major", "ctor_throws", "good", "init_fails", "no_symbol"})
        for (const auto& e : fs::directory_iterator(caseDir(c)))
            fs::copy(e.path(), plugins / e.path().filename());
    PluginManager m(HostPaths(root), Config{});
    m.loadDirectory(plugins);
    auto inv = discoverInventory(HostPaths(root));
    m.assign(inv);
    EXPECT_EQ(inv.find("mlx5_0")->plugin, "good");
    DeviceSamples ds;
    m.poll(*inv.find("mlx5_0"), ds);
    ASSERT_EQ(ds.samples.size(), 1U);
    EXPECT_EQ(ds.samples[0].name, "polls");
    auto st = m.statuses();
    ASSERT_EQ(st.size(), 5U);
    int running = 0;
    for (const auto& s : st)
        running += s.state == PluginState::Running ? 1 : 0;
    EXPECT_EQ(running, 1);
    for (const auto& s : st) {
        if (s.name == "good") {
            EXPECT_EQ(s.devices, 8U);
        }
    }
    // A device that disappears is detached.
    sim::remove(root, "mlx5_0");
    auto inv2 = discoverInventory(HostPaths(root));
    m.assign(inv2);
    for (const auto& s : m.statuses()) {
        if (s.name == "good") {
            EXPECT_EQ(s.devices, 7U);
        }
    }
    fs::remove_all(root);
    fs::remove_all(plugins);
}

TEST(PluginManager, FailingPollsBackOffDegradeAndRecover)
{
    auto root = test::makeTempDir("flaky");
    sim::create(root, {});
    auto flag = root / "fail-now";
    std::ofstream(flag) << "";
    Config c;
    c.plugins["flaky"]["FailFile"] = flag.string();
    PluginManager m(HostPaths(root), c);
    m.loadDirectory(caseDir("poll_fails"));
    auto inv = discoverInventory(HostPaths(root));
    m.assign(inv);
    const Device& d = *inv.find("mlx5_0");
    int attempts_with_error = 0;
    for (int i = 0; i < 12; ++i) {
        DeviceSamples ds;
        m.poll(d, ds);
        attempts_with_error += ds.errors.empty() ? 0 : 1;
        if (!ds.errors.empty()) {
            EXPECT_NE(ds.errors[0].message.find("simulated read failure"), std::string::npos);
        }
    }
    EXPECT_LT(attempts_with_error, 12) << "failing polls must be backed off";
    EXPECT_GE(attempts_with_error, 3);
    EXPECT_EQ(m.statuses()[0].state, PluginState::Degraded);
    fs::remove(flag);
    bool recovered = false;
    for (int i = 0; i < 70 && !recovered; ++i) {
        DeviceSamples ds;
        m.poll(d, ds);
        recovered = !ds.samples.empty();
    }
    EXPECT_TRUE(recovered);
    EXPECT_EQ(m.statuses()[0].state, PluginState::Running);
    EXPECT_TRUE(m.statuses()[0].last_error.empty());
    fs::remove_all(root);
}
