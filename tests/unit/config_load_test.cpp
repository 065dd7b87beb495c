// The configuration as an operator writes it, through real files: defaults, every key, errors
// that name file, line, section, key and what is allowed, drop-in order, and the device, counter
// and plugin sections.
#include "config/config.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

using namespace nicd;

namespace {

class ConfigLoad : public ::testing::Test {
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

    std::string write(const std::string& rel, const std::string& text)
    {
        auto p = dir_ / rel;
        std::ofstream(p) << text;
        return p.string();
    }
    ConfigResult load() { return loadConfig(dir_ / "nicd.conf", dir_ / "nicd.conf.d"); }

    // Loads a main file holding `text`; expects exactly one error and returns its line.
    std::string onlyError(const std::string& text)
    {
        write("nicd.conf", text);
        auto r = load();
        EXPECT_FALSE(r.config);
        EXPECT_EQ(r.errors.size(), 1U) << allErrors(r);
        return r.errors.empty() ? "" : r.errors.front().format();
    }

    // Loads a main file holding `text`; expects no error and returns the configuration.
    Config loaded(const std::string& text)
    {
        write("nicd.conf", text);
        auto r = load();
        EXPECT_TRUE(r.config) << allErrors(r);
        return r.config.value_or(Config{});
    }

    std::string mainFile() const { return (dir_ / "nicd.conf").string(); }

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

TEST_F(ConfigLoad, NoFilesMeansDefaults)
{
    std::filesystem::remove_all(dir_ / "nicd.conf.d");
    auto r = load();
    ASSERT_TRUE(r.config) << allErrors(r);
    const Config& c = *r.config;
    EXPECT_EQ(c.daemon.plugin_directory, NICD_DEFAULT_PLUGIN_DIR);
    EXPECT_EQ(c.daemon.poll_interval_ms, 5000U);
    EXPECT_EQ(c.daemon.pma_interval_ms, 30000U);
    EXPECT_EQ(c.daemon.state_directory, "/var/lib/nicd");
    EXPECT_TRUE(c.textfile.enable);
    EXPECT_EQ(c.textfile.path, "/var/lib/prometheus/node-exporter/nicd.prom");
    EXPECT_EQ(c.provision.settings.mode, ProvisionMode::Enforce);
    EXPECT_EQ(c.provision.settings.trust, TrustMode::Dscp);
    EXPECT_EQ(c.provision.settings.pfc_priorities, std::vector<uint8_t>{3});
    EXPECT_EQ(c.provision.settings.roce_tos, 106);
    EXPECT_EQ(c.provision.bonds, BondPolicy::Skip);
    EXPECT_FALSE(c.provision.dry_run);
    EXPECT_FALSE(c.provision.driver_ready_file) << "unset: wait for the operator's file if any";
    EXPECT_EQ(c.provision.ready_timeout_ms, 120000U);
    EXPECT_EQ(c.provision.verify_interval_ms, 60000U);
    EXPECT_TRUE(c.journal.enable);
    EXPECT_EQ(c.health.flap_count, 3U);
    EXPECT_EQ(c.health.event_ring_size, 1024U);
    EXPECT_TRUE(c.devices.empty());
    EXPECT_TRUE(c.counter_rules.empty());
    EXPECT_TRUE(c.plugins.empty());
    EXPECT_TRUE(c.sources.empty());
    EXPECT_TRUE(c.daemon == defaultConfig().daemon);
}

TEST_F(ConfigLoad, MissingMainFileStillReadsDropIns)
{
    auto dropin = write("nicd.conf.d/10-poll.conf", "[daemon]\nPollIntervalMs=700\n");
    auto r = load();
    ASSERT_TRUE(r.config) << allErrors(r);
    EXPECT_EQ(r.config->daemon.poll_interval_ms, 700U);
    ASSERT_EQ(r.config->sources.size(), 1U);
    EXPECT_EQ(r.config->sources[0], dropin);
}

TEST_F(ConfigLoad, EveryKeyIsParsed)
{
    Config c = loaded(R"([daemon]
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
Ecn=no
CnpDscp=48
CnpPriority=6
Bonds=configure
DryRun=yes
ExcludeDevices=mlx5_9 mlx5_1*
ExcludeNetdevs=eno*
IncludeNetdevs=ens1f0np0 ens2*
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
    EXPECT_FALSE(c.provision.settings.ecn);
    EXPECT_EQ(c.provision.settings.cnp_dscp, 48);
    EXPECT_EQ(c.provision.settings.cnp_priority, 6);
    EXPECT_EQ(c.provision.bonds, BondPolicy::Configure);
    EXPECT_TRUE(c.provision.dry_run);
    EXPECT_EQ(c.provision.exclude_devices, (std::vector<std::string>{"mlx5_9", "mlx5_1*"}));
    EXPECT_EQ(c.provision.exclude_netdevs, std::vector<std::string>{"eno*"});
    EXPECT_EQ(c.provision.include_netdevs, (std::vector<std::string>{"ens1f0np0", "ens2*"}));
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
    EXPECT_EQ(c.sources, std::vector<std::filesystem::path>{mainFile()});
}

TEST_F(ConfigLoad, DriverReadyFileUnsetEmptyOrAuto)
{
    EXPECT_EQ(loaded("[provision]\nDriverReadyFile=\n").provision.driver_ready_file, "")
        << "empty: do not wait";
    write("nicd.conf.d/50-auto.conf", "[provision]\nDriverReadyFile=auto\n");
    EXPECT_FALSE(loaded("[provision]\nDriverReadyFile=/run/x\n").provision.driver_ready_file)
        << "a drop-in can go back to auto";
}

TEST_F(ConfigLoad, ValueErrorsNameFileLineSectionKeyValueAndWhatIsAllowed)
{
    auto f = mainFile();
    EXPECT_EQ(onlyError("[daemon]\n\nPollIntervalMs=abc\n"),
              f + ":3: [daemon] PollIntervalMs=abc: expected an integer from 100 to 3600000");
    EXPECT_EQ(onlyError("[daemon]\nPmaIntervalMs=999\n"),
              f + ":2: [daemon] PmaIntervalMs=999: expected an integer from 1000 to 3600000");
    EXPECT_EQ(onlyError("[daemon]\nStateDirectory=var/lib\n"),
              f + ":2: [daemon] StateDirectory=var/lib: expected an absolute path");
    EXPECT_EQ(onlyError("[daemon]\nPluginDirectory=\n"),
              f + ":2: [daemon] PluginDirectory=: expected an absolute path");
    EXPECT_EQ(onlyError("[textfile]\nPath=/tmp/nicd.txt\n"),
              f + ":2: [textfile] Path=/tmp/nicd.txt: expected an absolute path ending in .prom "
                  "(node_exporter reads only *.prom)");
    EXPECT_EQ(onlyError("[textfile]\nPath=/tmp/.prom\n"),
              f + ":2: [textfile] Path=/tmp/.prom: expected an absolute path ending in .prom "
                  "(node_exporter reads only *.prom)");
    EXPECT_EQ(onlyError("[textfile]\nEnable=maybe\n"),
              f + ":2: [textfile] Enable=maybe: expected a boolean (yes/no, true/false, on/off, "
                  "1/0)");
    EXPECT_EQ(onlyError("[provision]\nMode=sometimes\n"),
              f + ":2: [provision] Mode=sometimes: expected one of enforce, verify, off");
    EXPECT_EQ(onlyError("[provision]\nTrust=vlan\n"),
              f + ":2: [provision] Trust=vlan: expected one of dscp, pcp");
    EXPECT_EQ(onlyError("[provision]\nBonds=all\n"),
              f + ":2: [provision] Bonds=all: expected one of skip, configure");
    EXPECT_EQ(onlyError("[provision]\nRoceTos=256\n"),
              f + ":2: [provision] RoceTos=256: expected an integer from 0 to 255");
    EXPECT_EQ(onlyError("[provision]\nCnpDscp=64\n"),
              f + ":2: [provision] CnpDscp=64: expected an integer from 0 to 63");
    EXPECT_EQ(onlyError("[device:mlx5_0]\nCnpPriority=8\n"),
              f + ":2: [device:mlx5_0] CnpPriority=8: expected an integer from 0 to 7");
    EXPECT_EQ(onlyError("[provision]\nPfcPriorities=3 3\n"),
              f + ":2: [provision] PfcPriorities=3 3: priority 3 is listed twice");
    EXPECT_EQ(onlyError("[provision]\nDriverReadyFile=ready\n"),
              f + ":2: [provision] DriverReadyFile=ready: expected an absolute path, empty (do "
                  "not wait) or auto");
    EXPECT_EQ(onlyError("[provision]\nReadyTimeoutSec=0\n"),
              f + ":2: [provision] ReadyTimeoutSec=0: expected an integer from 1 to 86400");
    EXPECT_EQ(onlyError("[provision]\nVerifyIntervalSec=1\n"),
              f + ":2: [provision] VerifyIntervalSec=1: expected an integer from 5 to 86400");
    EXPECT_EQ(onlyError("[health]\nFlapCount=1\n"),
              f + ":2: [health] FlapCount=1: expected an integer from 2 to 1000");
    EXPECT_EQ(onlyError("[health]\nEventRingSize=4\n"),
              f + ":2: [health] EventRingSize=4: expected an integer from 16 to 1000000");
    EXPECT_EQ(onlyError("[counter:symbol_error]\nAction=call_someone\n"),
              f + ":2: [counter:symbol_error] Action=call_someone: expected one of: none "
                  "check_cable replace_cable_or_transceiver check_switch_port check_qos_config "
                  "check_congestion_config check_cooling check_workload reset_nic reseat_nic "
                  "replace_nic update_firmware reboot_node");
    EXPECT_EQ(onlyError("[device:mlx5_0]\nRole=gpu\n"),
              f + ":2: [device:mlx5_0] Role=gpu: expected compute, storage or management");
    EXPECT_EQ(onlyError("[counter:symbol_error]\nRate=5/day\n"),
              f + ":2: [counter:symbol_error] Rate=5/day: expected a rate N/s, N/min or N/h (N "
                  ">= 0, e.g. 10/s, 5/min, 120/h)");
    EXPECT_EQ(onlyError("[counter:link_downed]\nSeverity=warning\n"),
              f + ":2: [counter:link_downed] Severity=warning: expected one of fatal, non-fatal");
    EXPECT_EQ(onlyError("[device:mlx5_0]\nExpectUp=sure\n"),
              f + ":2: [device:mlx5_0] ExpectUp=sure: expected a boolean (yes/no, true/false, "
                  "on/off, 1/0)");
    EXPECT_EQ(onlyError("[plugin:mlx5]\nEnabled=perhaps\n"),
              f + ":2: [plugin:mlx5] Enabled=perhaps: expected a boolean (yes/no, true/false, "
                  "on/off, 1/0)");
}

TEST_F(ConfigLoad, UnknownKeysAndSectionsSayWhatExists)
{
    auto f = mainFile();
    EXPECT_EQ(
        onlyError("[provision]\nColour=blue\n"),
        f + ":2: [provision] Colour=blue: unknown key; [provision] takes Mode, Trust, "
            "PfcPriorities, RoceTos, Ecn, CnpDscp, CnpPriority, Bonds, DryRun, ExcludeDevices, "
            "ExcludeNetdevs, "
            "IncludeNetdevs, DriverReadyFile, ReadyTimeoutSec, VerifyIntervalSec");
    EXPECT_EQ(onlyError("[daemon]\npollintervalms=200\n"),
              f + ":2: [daemon] pollintervalms=200: unknown key; did you mean PollIntervalMs? "
                  "(keys are case-sensitive)");
    EXPECT_EQ(onlyError("[device:mlx5_1]\nFlapCount=3\n"),
              f + ":2: [device:mlx5_1] FlapCount=3: unknown key; [device:IBDEV] takes Mode, "
                  "Trust, PfcPriorities, RoceTos, Ecn, CnpDscp, CnpPriority, ExpectUp, Role");
    EXPECT_EQ(onlyError("[counter:port_rcv_errors]\nThreshold=5\n"),
              f + ":2: [counter:port_rcv_errors] Threshold=5: unknown key; [counter:NAME] takes "
                  "Enable, Delta, Rate, Action, Severity");
    EXPECT_EQ(onlyError("[bogus]\nX=1\nY=2\n"),
              f + ":1: [bogus] unknown section; expected [daemon], [textfile], [provision], "
                  "[journal], [health], [signals], [device:IBDEV], [counter:NAME], "
                  "[counter:NAME/IBDEV] or "
                  "[plugin:NAME]")
        << "reported once, at the header; its keys are not reported again";
    EXPECT_EQ(onlyError("[Daemon]\n"),
              f + ":1: [Daemon] unknown section; did you mean [daemon]? (section names are "
                  "case-sensitive)");
    EXPECT_EQ(onlyError("[device:mlx5-0]\nMode=off\n"),
              f + ":1: [device:mlx5-0] unknown section; an RDMA device name is made of letters, "
                  "digits and '_'");
    const std::string counter_why =
        " unknown section; expected [counter:NAME] or [counter:NAME/IBDEV] (NAME made of letters, "
        "digits and _ . -, IBDEV of letters, digits and _)";
    EXPECT_EQ(onlyError("[counter:]\nRate=1/s\n"), f + ":1: [counter:]" + counter_why);
    EXPECT_EQ(onlyError("[counter:symbol_error/mlx5-0]\nRate=1/s\n"),
              f + ":1: [counter:symbol_error/mlx5-0]" + counter_why);
    EXPECT_EQ(onlyError("[counter:symbol_error/]\n"),
              f + ":1: [counter:symbol_error/]" + counter_why);
    EXPECT_EQ(onlyError("[plugin:]\nEnabled=no\n"),
              f + ":1: [plugin:] unknown section; a plugin name is made of letters, digits, '_' "
                  "and '-'");
    EXPECT_EQ(onlyError("PollIntervalMs=1000\n[daemon]\n"),
              f + ":1: PollIntervalMs=1000: key outside of any section; expected [daemon], "
                  "[textfile], [provision], [journal], [health], [signals], [device:IBDEV], "
                  "[counter:NAME], "
                  "[counter:NAME/IBDEV] or [plugin:NAME]");
}

TEST_F(ConfigLoad, SyntaxErrorsNameTheLine)
{
    auto f = mainFile();
    EXPECT_EQ(onlyError("[daemon]\nPollIntervalMs=200\nthis is not ini\n"),
              f + ":3: [daemon] expected Key=Value, [section] or a # comment: 'this is not ini'");
    EXPECT_EQ(onlyError("[daemon]\n[provision\nMode=verify\n"),
              f + ":2: section header without closing ']': '[provision'")
        << "Mode= under the broken header is neither reported again nor given to [daemon]";
}

TEST_F(ConfigLoad, EveryErrorOfEveryFileIsCollected)
{
    auto main = write("nicd.conf", "[daemon]\nPollIntervalMs=abc\nPmaIntervalMs=1\n[x]\n");
    auto late = write("nicd.conf.d/20-b.conf", "junk\n");
    auto early = write("nicd.conf.d/10-a.conf", "[journal]\n\nEnable=maybe\n");
    auto r = load();
    EXPECT_FALSE(r.config);
    ASSERT_EQ(r.errors.size(), 5U) << allErrors(r);
    EXPECT_EQ(r.errors[0].file + ":" + std::to_string(r.errors[0].line), main + ":2");
    EXPECT_EQ(r.errors[0].key, "PollIntervalMs");
    EXPECT_EQ(r.errors[0].value, "abc");
    EXPECT_EQ(r.errors[1].file + ":" + std::to_string(r.errors[1].line), main + ":3");
    EXPECT_EQ(r.errors[2].file + ":" + std::to_string(r.errors[2].line), main + ":4");
    EXPECT_EQ(r.errors[2].section, "x");
    EXPECT_EQ(r.errors[3].file + ":" + std::to_string(r.errors[3].line), early + ":3");
    EXPECT_EQ(r.errors[3].section, "journal");
    EXPECT_EQ(r.errors[3].key, "Enable");
    EXPECT_EQ(r.errors[4].file + ":" + std::to_string(r.errors[4].line), late + ":1");
}

TEST_F(ConfigLoad, DropInsAreReadInLexicalOrderAndLaterWins)
{
    write("nicd.conf", "[daemon]\nPollIntervalMs=1000\n[provision]\nRoceTos=96\n");
    auto late = write("nicd.conf.d/20-late.conf", "[daemon]\nPollIntervalMs=3000\n");
    auto early =
        write("nicd.conf.d/10-early.conf", "[daemon]\nPollIntervalMs=2000\nPmaIntervalMs=5000\n");
    auto upper = write("nicd.conf.d/1Z.conf", "[daemon]\nPollIntervalMs=1500\n");
    write("nicd.conf.d/30-off.conf.disabled", "[daemon]\nPollIntervalMs=9000\n");
    write("nicd.conf.d/.99-hidden.conf", "[daemon]\nPollIntervalMs=9000\n");
    write("nicd.conf.d/99-README", "not a config file\n");
    auto r = load();
    ASSERT_TRUE(r.config) << allErrors(r);
    EXPECT_EQ(r.config->daemon.poll_interval_ms, 3000U);
    EXPECT_EQ(r.config->daemon.pma_interval_ms, 5000U);
    EXPECT_EQ(r.config->provision.settings.roce_tos, 96) << "the main file's values stay";
    // byte order: "10-early" < "1Z" < "20-late"
    EXPECT_EQ(r.config->sources,
              (std::vector<std::filesystem::path>{mainFile(), early, upper, late}));
}

TEST_F(ConfigLoad, ADropInOverridesOnlyWhatItSets)
{
    write("nicd.conf", "[provision]\nPfcPriorities=3 4\n[device:mlx5_0]\nMode=verify\n"
                       "[plugin:mlx5]\nKnob=1\nOther=2\n");
    write("nicd.conf.d/50.conf", "[provision]\nPfcPriorities=none\n[device:mlx5_0]\nRoceTos=0\n"
                                 "[plugin:mlx5]\nKnob=3\n");
    auto r = load();
    ASSERT_TRUE(r.config) << allErrors(r);
    EXPECT_TRUE(r.config->provision.settings.pfc_priorities.empty());
    auto s = r.config->provisionFor("mlx5_0");
    EXPECT_EQ(s.mode, ProvisionMode::Verify);
    EXPECT_EQ(s.roce_tos, 0);
    EXPECT_EQ(r.config->plugins.at("mlx5"),
              (std::map<std::string, std::string>{{"Knob", "3"}, {"Other", "2"}}));
}

TEST_F(ConfigLoad, UnreadableFilesAreErrorsNamingThem)
{
    // We run as root, so permissions do not stop a read: a directory where a file is expected does.
    std::filesystem::create_directories(dir_ / "nicd.conf");
    std::filesystem::create_directories(dir_ / "nicd.conf.d" / "20-dir.conf");
    std::filesystem::create_symlink(dir_ / "absent", dir_ / "nicd.conf.d" / "30-dangling.conf");
    auto good =
        write("nicd.conf.d/10-good.conf", "[daemon]\nPollIntervalMs=200\nPmaIntervalMs=x\n");
    auto r = load();
    EXPECT_FALSE(r.config);
    ASSERT_EQ(r.errors.size(), 4U) << allErrors(r);
    EXPECT_EQ(r.errors[0].format(), mainFile() + ": cannot read: Is a directory");
    EXPECT_EQ(r.errors[1].format().substr(0, good.size() + 3), good + ":3:")
        << "one unreadable file does not stop the others";
    EXPECT_EQ(r.errors[2].format(),
              (dir_ / "nicd.conf.d" / "20-dir.conf").string() + ": cannot read: Is a directory");
    EXPECT_EQ(r.errors[3].format(), (dir_ / "nicd.conf.d" / "30-dangling.conf").string() +
                                        ": cannot open: No such file or directory");
}

TEST_F(ConfigLoad, ADropInDirectoryThatIsAFileIsAnError)
{
    std::filesystem::remove_all(dir_ / "nicd.conf.d");
    write("nicd.conf.d", "[daemon]\n");
    auto r = load();
    EXPECT_FALSE(r.config);
    ASSERT_EQ(r.errors.size(), 1U) << allErrors(r);
    EXPECT_EQ(r.errors[0].format(), (dir_ / "nicd.conf.d").string() +
                                        ": cannot list the drop-in directory: Not a directory");
}

TEST_F(ConfigLoad, DeviceSectionsOverrideProvisionPerDevice)
{
    Config c = loaded(R"([provision]
Mode=enforce
PfcPriorities=3
RoceTos=106
CnpDscp=48
[device:mlx5_0]
Mode=verify
PfcPriorities=none
ExpectUp=yes
Ecn=no
[device:mlx5_1]
Trust=pcp
RoceTos=96
CnpDscp=40
CnpPriority=5
Role=storage
PfcPriorities=3,4
ExpectUp=no
[device:mlx5_bond_0]
)");
    auto s0 = c.provisionFor("mlx5_0");
    EXPECT_EQ(s0.mode, ProvisionMode::Verify);
    EXPECT_EQ(s0.trust, TrustMode::Dscp);
    EXPECT_TRUE(s0.pfc_priorities.empty()) << "none: PFC off on this device";
    EXPECT_EQ(s0.roce_tos, 106);
    EXPECT_FALSE(s0.ecn);
    EXPECT_EQ(s0.cnp_dscp, 48) << "inherited";
    EXPECT_EQ(s0.cnp_priority, std::nullopt) << "left as it is";
    auto s1 = c.provisionFor("mlx5_1");
    EXPECT_TRUE(s1.ecn);
    EXPECT_EQ(s1.cnp_dscp, 40);
    EXPECT_EQ(s1.cnp_priority, 5);
    EXPECT_EQ(s1.mode, ProvisionMode::Enforce);
    EXPECT_EQ(s1.trust, TrustMode::Pcp);
    EXPECT_EQ(s1.pfc_priorities, (std::vector<uint8_t>{3, 4}));
    EXPECT_EQ(s1.roce_tos, 96);
    EXPECT_TRUE(c.provisionFor("mlx5_7") == c.provision.settings);
    EXPECT_EQ(c.devices.at("mlx5_0").expect_up, true);
    EXPECT_EQ(c.devices.at("mlx5_1").expect_up, false);
    EXPECT_EQ(c.devices.at("mlx5_1").role, Role::Storage);
    EXPECT_FALSE(c.devices.at("mlx5_0").roce_tos) << "unset keys stay unset";
    EXPECT_FALSE(c.devices.contains("mlx5_bond_0")) << "an empty section overrides nothing";
}

TEST_F(ConfigLoad, CounterSectionsForAllDevicesOrOne)
{
    Config c = loaded(R"([counter:symbol_error]
Rate=120/h
Severity=non-fatal
[counter:symbol_error/mlx5_3]
Enable=no
[counter:link_downed]
Delta=0
Severity=fatal
[counter:rx_prio3_pause]
Rate=1000/s
Action=check_congestion_config
[counter:port_rcv_errors]
Rate=30/min
Delta=100
Enable=yes
)");
    ASSERT_EQ(c.counter_rules.size(), 5U);
    const auto& se = c.counter_rules.at("symbol_error");
    ASSERT_TRUE(se.rate);
    EXPECT_EQ(*se.rate, (RateLimit{120, 3600}));
    EXPECT_EQ(se.severity, RuleSeverity::NonFatal);
    EXPECT_FALSE(se.enable);
    EXPECT_FALSE(se.delta);
    EXPECT_EQ(c.counter_rules.at("symbol_error/mlx5_3").enable, false);
    EXPECT_FALSE(c.counter_rules.at("symbol_error/mlx5_3").rate);
    EXPECT_EQ(c.counter_rules.at("link_downed").delta, 0U);
    EXPECT_EQ(c.counter_rules.at("link_downed").severity, RuleSeverity::Fatal);
    EXPECT_EQ(*c.counter_rules.at("rx_prio3_pause").rate, (RateLimit{1000, 1}));
    EXPECT_EQ(c.counter_rules.at("rx_prio3_pause").action, Action::CheckCongestionConfig);
    const auto& pre = c.counter_rules.at("port_rcv_errors");
    EXPECT_EQ(*pre.rate, (RateLimit{30, 60}));
    EXPECT_FALSE(pre.action);
    EXPECT_EQ(pre.delta, 100U);
    EXPECT_EQ(pre.enable, true);
}

TEST_F(ConfigLoad, PluginSectionsKeepFreeFormKeys)
{
    Config c =
        loaded("[plugin:mlx5]\nEnabled=no\nSomeVendorKnob= 42 \nempty=\n[plugin:other-vendor]\n"
               "Mode=fast\n");
    EXPECT_EQ(c.plugins.at("mlx5"),
              (std::map<std::string, std::string>{
                  {"Enabled", "no"}, {"SomeVendorKnob", "42"}, {"empty", ""}}));
    EXPECT_EQ(c.plugins.at("other-vendor").at("Mode"), "fast");
    EXPECT_EQ(onlyError("[plugin:mlx5]\nenabled=no\n"),
              mainFile() + ":2: [plugin:mlx5] enabled=no: unknown key; did you mean Enabled? "
                           "(keys are case-sensitive)");
}

TEST_F(ConfigLoad, ABadValueLeavesTheSettingAsItWas)
{
    Config c;
    std::vector<ConfigError> errors;
    parseConfigText("[daemon]\nPollIntervalMs=700\nPollIntervalMs=abc\n[device:mlx5_0]\n"
                    "RoceTos=999\n",
                    "test.conf", c, errors);
    EXPECT_EQ(errors.size(), 2U);
    EXPECT_EQ(c.daemon.poll_interval_ms, 700U);
    EXPECT_FALSE(c.devices.contains("mlx5_0"));
}

TEST(ConfigKeys, ListsEverySectionKind)
{
    auto keys = configKeys();
    EXPECT_EQ(keys.at("daemon"), (std::vector<std::string>{"PluginDirectory", "PollIntervalMs",
                                                           "PmaIntervalMs", "StateDirectory"}));
    EXPECT_EQ(keys.at("plugin:"), std::vector<std::string>{"Enabled"});
    for (const char* s :
         {"daemon", "textfile", "provision", "journal", "health", "device:", "counter:"})
        EXPECT_FALSE(keys.at(s).empty()) << s;
}
