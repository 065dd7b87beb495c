// The loader refuses every kind of broken plugin with a precise reason naming the file, and
// contains a plugin that fails at creation or init.
#include "plugins/plugin_loader.hpp"
#include "plugins/plugin_manager.hpp"
#include "support/temp_dir.hpp"
#include "support/test_plugins.hpp"

#include <fstream>

#include <gtest/gtest.h>

using namespace nicd;
namespace fs = std::filesystem;

namespace {

PluginStatus loadOne(const std::string& c, const Config& config = {})
{
    plugins::PluginManager m(HostPaths("/"), config);
    m.loadDirectory(test::testPluginDir(c));
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
    expectRefused("no_symbol", PluginState::Failed,
                  "no nicd_plugin_entry_v1 symbol: not a nicd plugin or an unsupported ABI");
    expectRefused("null_descriptor", PluginState::Failed,
                  "the entry function returned no descriptor");
    expectRefused("no_create", PluginState::Failed, "descriptor lacks create or destroy");
    expectRefused("empty_name", PluginState::Failed, "descriptor has no name");
    expectRefused("name_mismatch", PluginState::Failed,
                  "names the plugin 'other' but the file is named for 'misnamed'");
    expectRefused("ctor_throws", PluginState::Disabled, "create() failed");
    expectRefused("init_fails", PluginState::Disabled,
                  "init failed: no supported hardware found by init");
}

TEST(PluginLoader, EveryReasonNamesTheFile)
{
    for (const char* c :
         {"abi_major", "abi_minor", "small_struct", "toolchain", "no_symbol", "null_descriptor",
          "no_create", "empty_name", "name_mismatch", "ctor_throws", "init_fails"}) {
        auto st = loadOne(c);
        ASSERT_FALSE(st.file.empty()) << c;
        EXPECT_TRUE(st.last_error.starts_with(st.file + ": ")) << c << ": " << st.last_error;
        EXPECT_EQ(fs::path(st.file).parent_path(), test::testPluginDir(c));
    }
}

TEST(PluginLoader, RefusedPluginKeepsTheVersionItDeclared)
{
    auto st = loadOne("abi_minor");
    EXPECT_EQ(st.name, "minor");
    EXPECT_EQ(st.abi_major, 1U);
    EXPECT_EQ(st.abi_minor, NICD_PLUGIN_ABI_MINOR + 1);
}

TEST(PluginLoader, SecondPluginWithTheSameNameIsRefused)
{
    auto copy = test::makeTempDir("dup");
    fs::copy(test::testPluginDir("good") / "nicd-plugin-good.so", copy / "nicd-plugin-good.so");
    plugins::PluginManager m(HostPaths("/"), Config{});
    m.loadDirectory(test::testPluginDir("good"));
    m.loadDirectory(copy);
    auto st = m.statuses();
    ASSERT_EQ(st.size(), 2U);
    EXPECT_EQ(st[0].state, PluginState::Running);
    EXPECT_EQ(st[1].state, PluginState::Failed);
    EXPECT_NE(st[1].last_error.find("a plugin named 'good' is already loaded from " +
                                    (test::testPluginDir("good") / "nicd-plugin-good.so").string()),
              std::string::npos)
        << st[1].last_error;
    fs::remove_all(copy);
}

TEST(PluginLoader, OnlyPluginFilesAreConsidered)
{
    auto dir = test::makeTempDir("names");
    std::ofstream(dir / "README") << "not a plugin";
    std::ofstream(dir / "libfoo.so") << "not a plugin either";
    fs::copy(test::testPluginDir("good") / "nicd-plugin-good.so", dir / "nicd-plugin-good.so");
    plugins::PluginManager m(HostPaths("/"), Config{});
    m.loadDirectory(dir);
    auto st = m.statuses();
    ASSERT_EQ(st.size(), 1U);
    EXPECT_EQ(st[0].name, "good");
    EXPECT_EQ(st[0].state, PluginState::Running);
    fs::remove_all(dir);
}

TEST(PluginLoader, GarbageFileFailsWithTheLoadersMessage)
{
    auto dir = test::makeTempDir("garbage");
    std::ofstream(dir / "nicd-plugin-junk.so") << std::string(256, 'x'); // no ELF magic
    plugins::PluginManager m(HostPaths("/"), Config{});
    m.loadDirectory(dir);
    auto st = m.statuses();
    ASSERT_EQ(st.size(), 1U);
    EXPECT_EQ(st[0].state, PluginState::Failed);
    // dlerror's own words, then the hint.
    EXPECT_NE(st[0].last_error.find("cannot load"), std::string::npos) << st[0].last_error;
    EXPECT_NE(st[0].last_error.find("invalid ELF header"), std::string::npos) << st[0].last_error;
    EXPECT_NE(st[0].last_error.find("missing dependencies? check with ldd"), std::string::npos);
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
    plugins::PluginManager m(HostPaths("/"), Config{});
    m.loadDirectory("/nonexistent/plugins");
    EXPECT_TRUE(m.statuses().empty());
}

TEST(PluginLoader, DescriptorNameFromFile)
{
    EXPECT_EQ(plugins::pluginNameFromFile("/x/nicd-plugin-mlx5.so"), "mlx5");
    EXPECT_EQ(plugins::pluginNameFromFile("/x/libmlx5.so"), "");
    EXPECT_EQ(plugins::pluginNameFromFile("/x/nicd-plugin-.so"), "");
}
