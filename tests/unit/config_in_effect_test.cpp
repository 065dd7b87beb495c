// The configuration in effect, key by key, with where each value comes from (nicctl config).
#include "config/config_in_effect.hpp"
#include "support/config_files.hpp"

#include <gtest/gtest.h>

using namespace nicd;
using ConfigLoad = nicd::test::ConfigLoad;

TEST(ConfigInEffect, TheShippedFileGivesADefaultForEveryKeyOfTheFixedSections)
{
    auto defaults = config::shippedDefaults(config::shippedNicdConf());
    const auto keys = configKeys();
    for (const char* section : {"daemon", "textfile", "provision", "journal", "health", "signals"})
        for (const auto& key : keys.at(section))
            // The optics limits are unset by default (the module's own): no "#Key=" line.
            EXPECT_TRUE(defaults[section].contains(key) || key.starts_with("Optics"))
                << "[" << section << "] " << key;
    EXPECT_EQ(defaults["daemon"]["PollIntervalMs"], "5000");
    EXPECT_EQ(defaults["daemon"]["PluginDirectory"], NICD_DEFAULT_PLUGIN_DIR);
    EXPECT_FALSE(defaults.contains("device:mlx5_0")) << "the examples are not defaults";
}

TEST_F(ConfigLoad, EachValueSaysTheFileAndLineThatSetItOrDefault)
{
    write("nicd.conf", "[daemon]\nPollIntervalMs=1000\n[counter:symbol_error]\nRate=5/h\n");
    auto dropin = write("nicd.conf.d/10-a.conf", "[provision]\n\nRoceTos = 96\n");
    auto r = load();
    ASSERT_TRUE(r.config) << allErrors(r);
    auto rows = config::settingsInEffect(*r.config, {{"daemon", {{"PmaIntervalMs", "30000"}}}});
    auto find = [&](const std::string& section, const std::string& key) {
        for (const auto& row : rows)
            if (row.section == section && row.key == key)
                return row.value + " # " + row.source;
        return std::string("(missing)");
    };
    EXPECT_EQ(find("daemon", "PollIntervalMs"), "1000 # " + mainFile() + ":2");
    EXPECT_EQ(find("daemon", "PmaIntervalMs"), "30000 # default");
    EXPECT_EQ(find("provision", "RoceTos"), "96 # " + dropin + ":3");
    EXPECT_EQ(find("counter:symbol_error", "Rate"), "5/h # " + mainFile() + ":4");
    EXPECT_EQ(rows.front().section, "daemon") << "the fixed sections first, in nicd.conf's order";
}
