// The configuration as an operator writes it: defaults, every key, errors that name file, line
// and key, drop-in order, and the shipped nicd.conf.
#include "config/config.hpp"
#include "config/value_parsers.hpp"

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

using namespace nicd;

namespace {

class ConfigTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        dir_ = std::filesystem::temp_directory_path() /
               ("nicd-config-" + std::to_string(::getpid()) + "-" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name());
        std::filesystem::remove_all(dir_);
        std::filesystem::create_directories(dir_ / "nicd.conf.d");
    }
    void TearDown() override { std::filesystem::remove_all(dir_); }

    std::filesystem::path write(const std::string& rel, const std::string& text)
    {
        auto p = dir_ / rel;
        std::ofstream(p) << text;
        return p;
    }
    ConfigResult load() { return loadConfig(dir_ / "nicd.conf", dir_ / "nicd.conf.d"); }

    static std::string allErrors(const ConfigResult& r)
    {
        std::string out;
        for (const auto& e : r.errors)
            out += e.format() + "\n";
        return out;
    }

    std::filesystem::path dir_;
};

} // namespace

TEST_F(ConfigTest, MissingFilesMeanDefaults)
{
    auto r = load();
    ASSERT_TRUE(r.config) << allErrors(r);
    const Config& c = *r.config;
    EXPECT_EQ(c.daemon.plugin_directory, NICD_DEFAULT_PLUGIN_DIR);
    EXPECT_EQ(c.daemon.poll_interval_ms, 5000U);
    EXPECT_EQ(c.daemon.pma_interval_ms, 30000U);
    EXPECT_EQ(c.textfile.path, "/var/lib/prometheus/node-exporter/nicd.prom");
    EXPECT_EQ(c.provision.settings.mode, ProvisionMode::Enforce);
    EXPECT_EQ(c.provision.settings.pfc_priorities, std::vector<uint8_t>{3});
    EXPECT_EQ(c.provision.settings.roce_tos, 106);
    EXPECT_FALSE(c.provision.driver_ready_file);
    EXPECT_TRUE(c.sources.empty());
}

TEST_F(ConfigTest, EveryKeyIsParsed)
{
    write("nicd.conf", R"([daemon]
PluginDirectory=/opt/nicd/plugins
PollIntervalMs=1000
PmaIntervalMs=10000
StateDirectory=/srv/nicd
[textfile]
Enable=no
Path=/tmp/x/nicd.prom
[provision]
Mode=verify
Trust=pcp
PfcPriorities=4,3
RoceTos=96
Bonds=configure
DryRun=yes
ExcludeDevices=mlx5_9 mlx5_1*
ExcludeNetdevs=eno*
IncludeNetdevs=ens1f0np0
DriverReadyFile=/run/ready
ReadyTimeoutSec=30
VerifyIntervalSec=120
[journal]
Enable=off
[health]
FlapCount=5
FlapWindowSec=300
KernelRepeatCount=4
KernelRepeatWindowSec=60
KernelHoldSec=3600
DriverTimeoutMs=500
DriverFailCycles=2
EventRingSize=64
)");
    auto r = load();
    ASSERT_TRUE(r.config) << allErrors(r);
    const Config& c = *r.config;
    EXPECT_EQ(c.daemon.plugin_directory, "/opt/nicd/plugins");
    EXPECT_EQ(c.daemon.poll_interval_ms, 1000U);
    EXPECT_EQ(c.daemon.pma_interval_ms, 10000U);
    EXPECT_EQ(c.daemon.state_directory, "/srv/nicd");
    EXPECT_FALSE(c.textfile.enable);
    EXPECT_EQ(c.textfile.path, "/tmp/x/nicd.prom");
    EXPECT_EQ(c.provision.settings.mode, ProvisionMode::Verify);
    EXPECT_EQ(c.provision.settings.trust, TrustMode::Pcp);
    EXPECT_EQ(c.provision.settings.pfc_priorities, (std::vector<uint8_t>{3, 4}));
    EXPECT_EQ(c.provision.settings.roce_tos, 96);
    EXPECT_EQ(c.provision.bonds, BondPolicy::Configure);
    EXPECT_TRUE(c.provision.dry_run);
    EXPECT_EQ(c.provision.exclude_devices, (std::vector<std::string>{"mlx5_9", "mlx5_1*"}));
    EXPECT_EQ(c.provision.exclude_netdevs, std::vector<std::string>{"eno*"});
    EXPECT_EQ(c.provision.include_netdevs, std::vector<std::string>{"ens1f0np0"});
    EXPECT_EQ(c.provision.driver_ready_file, "/run/ready");
    EXPECT_EQ(c.provision.ready_timeout_ms, 30000U);
    EXPECT_EQ(c.provision.verify_interval_ms, 120000U);
    EXPECT_FALSE(c.journal.enable);
    EXPECT_EQ(c.health.flap_count, 5U);
    EXPECT_EQ(c.health.flap_window_sec, 300U);
    EXPECT_EQ(c.health.kernel_repeat_count, 4U);
    EXPECT_EQ(c.health.kernel_repeat_window_sec, 60U);
    EXPECT_EQ(c.health.kernel_hold_sec, 3600U);
    EXPECT_EQ(c.health.driver_timeout_ms, 500U);
    EXPECT_EQ(c.health.driver_fail_cycles, 2U);
    EXPECT_EQ(c.health.event_ring_size, 64U);
}

TEST_F(ConfigTest, ErrorsNameFileLineKeyAndWhatIsAllowed)
{
    auto f = write("nicd.conf",
                   "[daemon]\nPollIntervalMs=abc\n\n[provision]\nMode=sometimes\nColour=blue\n"
                   "[bogus]\nX=1\nthis line is not ini\n");
    auto r = load();
    EXPECT_FALSE(r.config);
    auto text = allErrors(r);
    EXPECT_NE(
        text.find(f.string() +
                  ":2: [daemon] PollIntervalMs: 'abc': expected an integer from 100 to 3600000"),
        std::string::npos)
        << text;
    EXPECT_NE(text.find(f.string() +
                        ":5: [provision] Mode: 'sometimes': expected one of: enforce verify off"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find(f.string() + ":6: [provision] Colour: unknown key; [provision] takes"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find(f.string() + ":7: [bogus] unknown section"), std::string::npos) << text;
    EXPECT_NE(text.find(f.string() + ":9:"), std::string::npos) << text;
    EXPECT_NE(text.find("expected Key=Value"), std::string::npos) << text;
    EXPECT_EQ(r.errors.size(), 5U) << text; // every problem, each once
}

TEST_F(ConfigTest, KeyOutsideSectionAndBadPathsAreErrors)
{
    write("nicd.conf",
          "PollIntervalMs=1000\n[textfile]\nPath=relative/nicd.prom\n[daemon]\nStateDirectory=var\n"
          "[textfile]\nPath=/tmp/nicd.txt\n");
    auto r = load();
    EXPECT_FALSE(r.config);
    auto text = allErrors(r);
    EXPECT_NE(text.find(":1: PollIntervalMs: key outside of any section"), std::string::npos)
        << text;
    EXPECT_NE(text.find(":3: [textfile] Path: 'relative/nicd.prom': expected an absolute path"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find(":5: [daemon] StateDirectory"), std::string::npos) << text;
    EXPECT_NE(
        text.find(
            ":7: [textfile] Path: '/tmp/nicd.txt': expected an absolute path ending in .prom"),
        std::string::npos)
        << text;
}

TEST_F(ConfigTest, DropInsAreReadInLexicalOrderAndLaterWins)
{
    write("nicd.conf", "[daemon]\nPollIntervalMs=1000\n[provision]\nRoceTos=96\n");
    write("nicd.conf.d/20-late.conf", "[daemon]\nPollIntervalMs=3000\n");
    write("nicd.conf.d/10-early.conf", "[daemon]\nPollIntervalMs=2000\nPmaIntervalMs=5000\n");
    write("nicd.conf.d/30-ignored.conf.disabled", "[daemon]\nPollIntervalMs=9000\n");
    auto r = load();
    ASSERT_TRUE(r.config) << allErrors(r);
    EXPECT_EQ(r.config->daemon.poll_interval_ms, 3000U);
    EXPECT_EQ(r.config->daemon.pma_interval_ms, 5000U);
    EXPECT_EQ(r.config->provision.settings.roce_tos, 96);
    ASSERT_EQ(r.config->sources.size(), 3U);
    EXPECT_EQ(r.config->sources[1].filename(), "10-early.conf");
    EXPECT_EQ(r.config->sources[2].filename(), "20-late.conf");
}

TEST_F(ConfigTest, ErrorInADropInNamesTheDropIn)
{
    write("nicd.conf", "[daemon]\nPollIntervalMs=1000\n");
    auto bad = write("nicd.conf.d/50-bad.conf", "[journal]\n\nEnable=maybe\n");
    auto r = load();
    ASSERT_EQ(r.errors.size(), 1U);
    EXPECT_EQ(
        r.errors[0].format(),
        bad.string() +
            ":3: [journal] Enable: 'maybe': expected a boolean (yes/no, true/false, on/off, 1/0)");
}

TEST_F(ConfigTest, DeviceCounterAndPluginSections)
{
    write("nicd.conf", R"([provision]
PfcPriorities=3
[device:mlx5_0]
Mode=verify
PfcPriorities=none
ExpectUp=yes
[counter:symbol_error]
Rate=120/h
Severity=non-fatal
[counter:symbol_error/mlx5_3]
Enable=no
[counter:link_downed]
Delta=0
[plugin:mlx5]
Enabled=no
SomeVendorKnob=42
)");
    auto r = load();
    ASSERT_TRUE(r.config) << allErrors(r);
    const Config& c = *r.config;
    auto s0 = c.provisionFor("mlx5_0");
    EXPECT_EQ(s0.mode, ProvisionMode::Verify);
    EXPECT_TRUE(s0.pfc_priorities.empty());
    EXPECT_EQ(s0.roce_tos, 106);
    auto s1 = c.provisionFor("mlx5_1");
    EXPECT_EQ(s1.mode, ProvisionMode::Enforce);
    EXPECT_EQ(s1.pfc_priorities, std::vector<uint8_t>{3});
    EXPECT_EQ(c.devices.at("mlx5_0").expect_up, true);
    ASSERT_TRUE(c.counter_rules.at("symbol_error").rate_per_second);
    EXPECT_DOUBLE_EQ(*c.counter_rules.at("symbol_error").rate_per_second, 120.0 / 3600.0);
    EXPECT_EQ(c.counter_rules.at("symbol_error").severity, RuleSeverity::NonFatal);
    EXPECT_EQ(c.counter_rules.at("symbol_error/mlx5_3").enable, false);
    EXPECT_EQ(c.counter_rules.at("link_downed").delta, 0U);
    EXPECT_EQ(c.plugins.at("mlx5").at("Enabled"), "no");
    EXPECT_EQ(c.plugins.at("mlx5").at("SomeVendorKnob"), "42");
}

TEST_F(ConfigTest, BadSectionNamesAndPluginEnabledValue)
{
    write("nicd.conf",
          "[device:mlx5-0]\nMode=off\n[counter:]\nRate=1/s\n[plugin:mlx5]\nEnabled=perhaps\n"
          "[device:mlx5_1]\nFlapCount=3\n");
    auto r = load();
    auto text = allErrors(r);
    EXPECT_EQ(r.errors.size(), 4U) << text;
    EXPECT_NE(text.find(":2: [device:mlx5-0] Mode: device name 'mlx5-0'"), std::string::npos)
        << text;
    EXPECT_NE(text.find(":4: [counter:] Rate: expected [counter:NAME]"), std::string::npos) << text;
    EXPECT_NE(text.find(":6: [plugin:mlx5] Enabled: 'perhaps': expected a boolean"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find(":8: [device:mlx5_1] FlapCount: unknown key"), std::string::npos) << text;
}

TEST(ConfigValues, Priorities)
{
    std::string why;
    EXPECT_EQ(config::parsePriorities("3", why), std::vector<uint8_t>{3});
    EXPECT_EQ(config::parsePriorities(" 5, 3  4 ", why), (std::vector<uint8_t>{3, 4, 5}));
    EXPECT_EQ(config::parsePriorities("", why), std::vector<uint8_t>{});
    EXPECT_EQ(config::parsePriorities("none", why), std::vector<uint8_t>{});
    EXPECT_FALSE(config::parsePriorities("8", why));
    EXPECT_NE(why.find("'8' is not one"), std::string::npos);
    EXPECT_FALSE(config::parsePriorities("3 3", why));
    EXPECT_EQ(why, "priority 3 is listed twice");
    EXPECT_FALSE(config::parsePriorities("-1", why));
}

TEST(ConfigValues, RatesAreStoredPerSecond)
{
    std::string why;
    EXPECT_DOUBLE_EQ(*config::parseRate("10/s", why), 10.0);
    EXPECT_DOUBLE_EQ(*config::parseRate("10/sec", why), 10.0);
    EXPECT_DOUBLE_EQ(*config::parseRate("5/min", why), 5.0 / 60);
    EXPECT_DOUBLE_EQ(*config::parseRate("120/h", why), 120.0 / 3600);
    EXPECT_DOUBLE_EQ(*config::parseRate("0.5 / hour", why), 0.5 / 3600);
    EXPECT_FALSE(config::parseRate("10", why));
    EXPECT_FALSE(config::parseRate("10/day", why));
    EXPECT_FALSE(config::parseRate("-1/s", why));
    EXPECT_FALSE(config::parseRate("x/s", why));
}

TEST(ConfigValues, Booleans)
{
    std::string why;
    for (const char* t : {"yes", "TRUE", "1", "on"})
        EXPECT_EQ(config::parseBool(t, why), true) << t;
    for (const char* f : {"no", "False", "0", "OFF"})
        EXPECT_EQ(config::parseBool(f, why), false) << f;
    EXPECT_FALSE(config::parseBool("y", why));
}

// The shipped file: loads cleanly, and uncommenting every "#Key=value" line changes nothing,
// so it lists real keys with their true defaults.
TEST_F(ConfigTest, ShippedConfigListsEveryKeyWithItsDefault)
{
    std::ifstream in(std::string(NICD_BUILD_DIR) + "/etc/nicd.conf");
    ASSERT_TRUE(in) << "the configured etc/nicd.conf is missing from the build tree";
    std::stringstream ss;
    ss << in.rdbuf();
    std::string shipped = ss.str();

    Config as_shipped;
    std::vector<ConfigError> errors;
    parseConfigText(shipped, "nicd.conf", as_shipped, errors);
    EXPECT_TRUE(errors.empty());

    std::string uncommented =
        std::regex_replace(shipped, std::regex("^#([A-Za-z]+=)", std::regex::multiline), "$1");
    size_t keys = 0;
    for (size_t p = 0; (p = uncommented.find("\n", p)) != std::string::npos; ++p)
        if (p + 1 < uncommented.size() &&
            std::isupper(static_cast<unsigned char>(uncommented[p + 1])))
            ++keys;
    // 4 [daemon] + 2 [textfile] + 12 [provision] + 1 [journal] + 8 [health]
    EXPECT_EQ(keys, 27U) << "expected every key of every section";

    Config defaults;
    defaults.daemon.plugin_directory = NICD_DEFAULT_PLUGIN_DIR;
    Config parsed = defaults;
    parseConfigText(uncommented, "nicd.conf", parsed, errors);
    for (const auto& e : errors)
        ADD_FAILURE() << e.format();
    EXPECT_EQ(parsed.daemon.plugin_directory, defaults.daemon.plugin_directory);
    EXPECT_EQ(parsed.daemon.poll_interval_ms, defaults.daemon.poll_interval_ms);
    EXPECT_EQ(parsed.daemon.pma_interval_ms, defaults.daemon.pma_interval_ms);
    EXPECT_EQ(parsed.daemon.state_directory, defaults.daemon.state_directory);
    EXPECT_EQ(parsed.textfile.enable, defaults.textfile.enable);
    EXPECT_EQ(parsed.textfile.path, defaults.textfile.path);
    EXPECT_EQ(parsed.provision.settings.mode, defaults.provision.settings.mode);
    EXPECT_EQ(parsed.provision.settings.trust, defaults.provision.settings.trust);
    EXPECT_EQ(parsed.provision.settings.pfc_priorities, defaults.provision.settings.pfc_priorities);
    EXPECT_EQ(parsed.provision.settings.roce_tos, defaults.provision.settings.roce_tos);
    EXPECT_EQ(parsed.provision.bonds, defaults.provision.bonds);
    EXPECT_EQ(parsed.provision.dry_run, defaults.provision.dry_run);
    EXPECT_EQ(parsed.provision.exclude_devices, defaults.provision.exclude_devices);
    EXPECT_EQ(parsed.provision.ready_timeout_ms, defaults.provision.ready_timeout_ms);
    EXPECT_EQ(parsed.provision.verify_interval_ms, defaults.provision.verify_interval_ms);
    EXPECT_EQ(parsed.journal.enable, defaults.journal.enable);
    EXPECT_EQ(parsed.health.flap_count, defaults.health.flap_count);
    EXPECT_EQ(parsed.health.flap_window_sec, defaults.health.flap_window_sec);
    EXPECT_EQ(parsed.health.kernel_repeat_count, defaults.health.kernel_repeat_count);
    EXPECT_EQ(parsed.health.kernel_repeat_window_sec, defaults.health.kernel_repeat_window_sec);
    EXPECT_EQ(parsed.health.kernel_hold_sec, defaults.health.kernel_hold_sec);
    EXPECT_EQ(parsed.health.driver_timeout_ms, defaults.health.driver_timeout_ms);
    EXPECT_EQ(parsed.health.driver_fail_cycles, defaults.health.driver_fail_cycles);
    EXPECT_EQ(parsed.health.event_ring_size, defaults.health.event_ring_size);
}
