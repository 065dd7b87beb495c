// The shipped etc/nicd.conf: it loads cleanly, it lists every key the daemon knows with a
// comment, uncommenting every "#Key=value" line changes nothing (so each value shown is the true
// default), and its example sections are valid configuration.
#include "config/config.hpp"

#include <cmath>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

using namespace nicd;

namespace {

std::string readFile(const std::string& path)
{
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// etc/nicd.conf.in as CMake configures it (the one placeholder is the plugin directory).
std::string shippedText()
{
    std::string text = readFile(std::string(NICD_SOURCE_DIR) + "/etc/nicd.conf.in");
    const std::string placeholder = "@NICD_PLUGIN_INSTALL_DIR@";
    for (auto p = text.find(placeholder); p != std::string::npos; p = text.find(placeholder))
        text.replace(p, placeholder.size(), NICD_DEFAULT_PLUGIN_DIR);
    return text;
}

std::vector<std::string> lines(const std::string& text)
{
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);)
        out.push_back(l);
    return out;
}

const std::regex kCommentedKey("^#([A-Z][A-Za-z]*)=(.*)$");
const std::regex kHeader("^\\[([^\\]]+)\\]$");
const std::regex kExampleLine("^#   (\\[[^\\]]+\\]|[A-Z][A-Za-z]*=.*)$");

// "#Key=value" lines become "Key=value".
std::string uncommentDefaults(const std::string& text)
{
    std::string out;
    for (const auto& l : lines(text)) {
        std::smatch m;
        out += (std::regex_match(l, m, kCommentedKey) ? l.substr(1) : l) + "\n";
    }
    return out;
}

// The example sections at the end ("#   [device:mlx5_0]", "#   Mode=verify"), uncommented.
std::string uncommentExamples(const std::string& text)
{
    std::string out;
    for (const auto& l : lines(text))
        if (std::regex_match(l, kExampleLine))
            out += l.substr(4) + "\n";
    return out;
}

// section -> keys, in the order a text lists them.
std::map<std::string, std::vector<std::string>> keysBySection(const std::string& text)
{
    std::map<std::string, std::vector<std::string>> out;
    std::string section;
    for (const auto& l : lines(text)) {
        std::smatch m;
        if (std::regex_match(l, m, kHeader))
            section = m[1];
        else if (auto eq = l.find('='); !l.empty() && l[0] != '#' && eq != std::string::npos)
            out[section].push_back(l.substr(0, eq));
    }
    return out;
}

std::string allErrors(const std::vector<ConfigError>& errors)
{
    std::string out;
    for (const auto& e : errors)
        out += e.format() + "\n";
    return out;
}

void expectDefaults(const Config& c)
{
    const Config d = defaultConfig();
    EXPECT_EQ(c.daemon.plugin_directory, d.daemon.plugin_directory);
    EXPECT_TRUE(c.daemon == d.daemon) << "[daemon] is not the defaults";
    EXPECT_TRUE(c.textfile == d.textfile) << "[textfile] is not the defaults";
    EXPECT_TRUE(c.provision == d.provision) << "[provision] is not the defaults";
    EXPECT_FALSE(c.provision.driver_ready_file) << *c.provision.driver_ready_file;
    EXPECT_TRUE(c.journal == d.journal) << "[journal] is not the defaults";
    EXPECT_TRUE(c.health == d.health) << "[health] is not the defaults";
    EXPECT_TRUE(c.devices.empty());
    EXPECT_TRUE(c.counter_rules.empty());
    EXPECT_TRUE(c.plugins.empty());
}

} // namespace

TEST(ShippedConfig, TheBuildInstallsTheSourceFileConfigured)
{
    auto text = shippedText();
    ASSERT_FALSE(text.empty());
    // ("compute:8@400" is a value, not a placeholder)
    EXPECT_FALSE(std::regex_search(text, std::regex("@[A-Za-z_][A-Za-z0-9_]*@")))
        << "an unconfigured @PLACEHOLDER@ is left";
    EXPECT_TRUE(readFile(std::string(NICD_BUILD_DIR) + "/etc/nicd.conf") == text)
        << "the build tree's etc/nicd.conf is not etc/nicd.conf.in configured";
}

TEST(ShippedConfig, LoadsWithoutErrorsAndChangesNothing)
{
    auto path = std::string(NICD_BUILD_DIR) + "/etc/nicd.conf";
    auto r = loadConfig(path, std::string(NICD_BUILD_DIR) + "/etc/no-such-nicd.conf.d");
    ASSERT_TRUE(r.config) << allErrors(r.errors);
    EXPECT_EQ(r.config->sources, std::vector<std::filesystem::path>{path});
    expectDefaults(*r.config);
}

TEST(ShippedConfig, UncommentingEveryKeyKeepsTheDefaults)
{
    auto uncommented = uncommentDefaults(shippedText());
    Config c = defaultConfig();
    std::vector<ConfigError> errors;
    parseConfigText(uncommented, "nicd.conf (uncommented)", c, errors);
    EXPECT_TRUE(errors.empty()) << allErrors(errors);
    expectDefaults(c);
}

TEST(ShippedConfig, ListsEveryKeyOnceWithAComment)
{
    auto text = shippedText();
    auto listed = keysBySection(uncommentDefaults(text));
    auto known = configKeys();
    // Optics<Q><Level>= have no default (the module's own): the example shows them.
    std::erase_if(known.at("signals"),
                  [](const std::string& k) { return k.starts_with("Optics"); });
    for (const char* section : {"daemon", "textfile", "provision", "journal", "health", "signals"})
        EXPECT_EQ(listed[section], known.at(section)) << "[" << section << "]";
    EXPECT_EQ(listed.size(), 6U) << "only the fixed sections are listed as defaults";

    auto all = lines(text);
    for (size_t i = 0; i < all.size(); ++i) {
        if (!std::regex_match(all[i], kCommentedKey))
            continue;
        EXPECT_TRUE(i > 0 && all[i - 1].starts_with("# ") &&
                    !std::regex_match(all[i - 1], kCommentedKey))
            << "no comment explains line " << i + 1 << ": " << all[i];
    }
}

TEST(ShippedConfig, ExampleSectionsAreValidAndShowEveryKey)
{
    auto examples = uncommentExamples(shippedText());
    Config c = defaultConfig();
    std::vector<ConfigError> errors;
    parseConfigText(examples, "nicd.conf (examples)", c, errors);
    EXPECT_TRUE(errors.empty()) << allErrors(errors) << examples;
    EXPECT_TRUE(c.devices.contains("mlx5_0"));
    EXPECT_TRUE(c.counter_rules.contains("symbol_error"));
    EXPECT_TRUE(c.plugins.contains("mlx5"));
    ASSERT_TRUE(c.signals.optics_limits.contains("rx_power"));
    EXPECT_NEAR(*c.signals.optics_limits.at("rx_power").low_warning, 1e-3 * std::pow(10, -0.95),
                1e-9)
        << "OpticsRxPowerLowWarning=-9.5 dBm is stored in watts";

    auto known = configKeys();
    auto listed = keysBySection(examples);
    EXPECT_EQ(listed["device:mlx5_0"], known.at("device:"));
    std::set<std::string> counter_keys;
    for (const auto& [section, keys] : listed)
        if (section.starts_with("counter:"))
            counter_keys.insert(keys.begin(), keys.end());
    const auto& counter_known = known.at("counter:");
    EXPECT_EQ(counter_keys, std::set<std::string>(counter_known.begin(), counter_known.end()));
    EXPECT_EQ(listed["plugin:mlx5"], known.at("plugin:"));
}
