// [plugin:NAME] sections against what the plugins declare (ABI 1.7): a key a plugin does not
// take, a value not of its type, a section for a plugin that is not there; checked before any
// plugin is created, by nicd at start and by nicd --check-config.
#include "config/plugin_sections.hpp"
#include "plugins/plugin_loader.hpp"
#include "plugins/plugin_manager.hpp"
#include "plugins/plugin_schemas.hpp"
#include "support/config_files.hpp"
#include "support/test_plugins.hpp"

#include <gtest/gtest.h>

using namespace nicd;
using ConfigLoad = nicd::test::ConfigLoad;
namespace fs = std::filesystem;

namespace {

std::string formatted(const std::vector<ConfigError>& errors)
{
    std::string out;
    for (const auto& e : errors)
        out += e.format() + "\n";
    return out;
}

const std::vector<config::PluginSetting> kTestSettings{{"ReadyFile", "path", ""},
                                                       {"HangDir", "path", ""},
                                                       {"FailDir", "path", ""},
                                                       {"PartialDir", "path", ""}};

} // namespace

TEST_F(ConfigLoad, PluginKeysAreCheckedAgainstWhatThePluginDeclares)
{
    Config c = loaded("[plugin:mlx5]\nFoo=1\n[plugin:bnxt]\nEnable=no\n[plugin:good]\n"
                      "ReadyFile=relative\nHangDir=/tmp/x\nEnabled=yes\n");
    std::vector<ConfigError> errors;
    std::vector<ConfigError> warnings;
    config::checkPluginSections(c,
                                {{"bnxt", std::vector<config::PluginSetting>{}, true},
                                 {"good", kTestSettings, true},
                                 {"mlx5", std::vector<config::PluginSetting>{}, true}},
                                "/usr/lib/nicd/plugins", errors, warnings);
    EXPECT_EQ(formatted(errors),
              mainFile() + ":4: [plugin:bnxt] Enable=no: unknown key; did you mean Enabled?\n" +
                  mainFile() + ":6: [plugin:good] ReadyFile=relative: expected an absolute path\n" +
                  mainFile() + ":2: [plugin:mlx5] Foo=1: unknown key; plugin mlx5 takes Enabled\n");
    EXPECT_TRUE(warnings.empty()) << formatted(warnings);
}

TEST_F(ConfigLoad, APluginSectionForNoPluginIsAnError)
{
    Config c = loaded("[plugin:mlx5]\nEnabled=yes\n[plugin:nosuch]\n");
    std::vector<ConfigError> errors;
    std::vector<ConfigError> warnings;
    config::checkPluginSections(c, {{"bnxt", std::nullopt, false}, {"mlx5", std::nullopt, false}},
                                "/usr/lib/nicd/plugins", errors, warnings);
    EXPECT_EQ(formatted(errors), mainFile() + ":3: [plugin:nosuch] no plugin named nosuch in "
                                              "/usr/lib/nicd/plugins (there: bnxt, mlx5)\n");
}

TEST_F(ConfigLoad, KeysOfAnOldPluginOrADisabledOneAreNotCheckedAndSaySo)
{
    Config c = loaded("[plugin:old]\nHangDir=/x\n[plugin:off]\nEnabled=no\nAnything=1\n");
    std::vector<ConfigError> errors;
    std::vector<ConfigError> warnings;
    config::checkPluginSections(c, {{"off", std::nullopt, false}, {"old", std::nullopt, true}},
                                "/p", errors, warnings);
    EXPECT_TRUE(errors.empty()) << formatted(errors);
    EXPECT_EQ(formatted(warnings),
              mainFile() +
                  ":3: [plugin:off] the keys besides Enabled= are not checked: plugin "
                  "off is disabled or refused, and not opened\n" +
                  mainFile() +
                  ":2: [plugin:old] HangDir=/x: not checked: plugin old is built for an ABI "
                  "before 1.7 and declares no keys; it gets them as written\n");
}

TEST(ConfigValues, PluginSettingTypes)
{
    EXPECT_TRUE(config::checkSettingValue("bool", "yes"));
    EXPECT_FALSE(config::checkSettingValue("bool", "maybe"));
    EXPECT_TRUE(config::checkSettingValue("uint", "42"));
    EXPECT_FALSE(config::checkSettingValue("uint", "-1"));
    EXPECT_TRUE(config::checkSettingValue("path", "/run/x"));
    EXPECT_FALSE(config::checkSettingValue("path", "run/x"));
    EXPECT_TRUE(config::checkSettingValue("string", "any thing"));
}

TEST(PluginLoader, DescriptorSettingsAreChecked)
{
    nicd_plugin_setting_v1 settings[] = {
        {"ReadyFile", "path", "x"}, {"Count", "uint", "y"}, {nullptr, nullptr, nullptr}};
    nicd_plugin_descriptor_v1 d{
        sizeof(nicd_plugin_descriptor_v1),
        NICD_PLUGIN_ABI_MAJOR,
        7,
        "p",
        "1",
        NICD_PLUGIN_TOOLCHAIN,
        [](plugin::v1::IHost*) noexcept -> plugin::v1::IPlugin* { return nullptr; },
        [](plugin::v1::IPlugin*) noexcept {},
        settings};
    EXPECT_EQ(plugins::checkDescriptor(&d, "p"), "");
    ASSERT_TRUE(plugins::declaredSettings(&d));
    EXPECT_EQ(plugins::declaredSettings(&d)->size(), 2U);
    EXPECT_EQ(plugins::declaredSettings(&d)->at(1).type, "uint");
    settings[1].type = "float";
    EXPECT_EQ(plugins::checkDescriptor(&d, "p"),
              "setting Count has type 'float' (bool, uint, path or string)");
    settings[1] = {"ReadyFile", "path", ""};
    EXPECT_EQ(plugins::checkDescriptor(&d, "p"), "setting ReadyFile is declared twice");
    settings[1] = {"Enabled", "bool", ""};
    EXPECT_EQ(plugins::checkDescriptor(&d, "p"),
              "setting Enabled is the daemon's, not the plugin's");
    settings[1] = {"Bad key", "bool", ""};
    EXPECT_EQ(plugins::checkDescriptor(&d, "p"),
              "setting 1 has a key that is not 1-64 letters, digits and '_'");
    d.abi_minor = 6; // before the field: not read, whatever it holds
    EXPECT_EQ(plugins::checkDescriptor(&d, "p"), "");
    EXPECT_FALSE(plugins::declaredSettings(&d));
}

TEST(PluginLoader, APluginWhoseSectionIsWrongIsNotCreated)
{
    Config c;
    c.plugins["good"]["Nonsense"] = "1";
    c.origins[{"plugin:good", "Nonsense"}] = {"/etc/nicd/nicd.conf", 12};
    plugins::PluginManager m(HostPaths("/"), c);
    m.loadDirectory(test::testPluginDir("good"));
    auto st = m.statuses();
    ASSERT_EQ(st.size(), 1U);
    EXPECT_EQ(st[0].state, PluginState::Failed);
    EXPECT_NE(st[0].last_error.find("not created: /etc/nicd/nicd.conf:12: [plugin:good] "
                                    "Nonsense=1: unknown key; plugin good takes Enabled, "
                                    "ReadyFile, HangDir, FailDir, PartialDir"),
              std::string::npos)
        << st[0].last_error;
}

TEST(PluginLoader, SchemasOfADirectoryAreReadWithoutCreatingAPlugin)
{
    Config c;
    std::vector<ConfigError> errors;
    auto good = plugins::readPluginSchemas(test::testPluginDir("good"), c, errors);
    ASSERT_EQ(good.size(), 1U);
    EXPECT_EQ(good[0].name, "good");
    EXPECT_TRUE(good[0].opened);
    ASSERT_TRUE(good[0].settings);
    EXPECT_EQ(good[0].settings->size(), 4U);
    auto old = plugins::readPluginSchemas(test::testPluginDir("traits_v15"), c, errors);
    ASSERT_EQ(old.size(), 1U);
    EXPECT_FALSE(old[0].settings) << "ABI 1.5: declares none";
    c.plugins["good"]["Enabled"] = "no";
    auto off = plugins::readPluginSchemas(test::testPluginDir("good"), c, errors);
    ASSERT_EQ(off.size(), 1U);
    EXPECT_FALSE(off[0].opened) << "a disabled plugin's library is not opened";
    EXPECT_TRUE(errors.empty()) << formatted(errors);
    plugins::readPluginSchemas(test::testPluginDir("abi_major"), Config{}, errors);
    ASSERT_EQ(errors.size(), 1U);
    EXPECT_NE(errors[0].format().find("plugin refused: "), std::string::npos);
}
