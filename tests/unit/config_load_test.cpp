// The configuration as an operator writes it, through real files: defaults, every key, and
// errors that name file, line, section, key and what is allowed (files and drop-ins:
// config_files_test.cpp; device, counter and plugin sections: config_sections_test.cpp).
#include "config/config.hpp"
#include "support/config_files.hpp"

#include <gtest/gtest.h>

using namespace nicd;
using ConfigLoad = nicd::test::ConfigLoad;

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
    EXPECT_TRUE(c.daemon.ignore_devices.empty());
    EXPECT_EQ(c.daemon.drop_counter_after, 3U);
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
    EXPECT_EQ(c.health.flap_mode, FlapMode::Transitions) << "what nicd always counted";
    EXPECT_EQ(c.health.flap_clear_sec, 600U) << "clears after a window's stability, as before";
    EXPECT_EQ(c.health.drop_sec, 240U) << "gpud's 4 minutes";
    EXPECT_EQ(c.health.drop_hold_sec, 600U);
    EXPECT_EQ(c.health.event_ring_size, 1024U);
    EXPECT_TRUE(c.devices.empty());
    EXPECT_TRUE(c.counter_rules.empty());
    EXPECT_TRUE(c.plugins.empty());
    EXPECT_TRUE(c.sources.empty());
    EXPECT_TRUE(c.daemon == defaultConfig().daemon);
}

TEST_F(ConfigLoad, EveryKeyIsParsed)
{
    Config c = loaded(R"([daemon]
PluginDirectory=/opt/nicd/plugins
PollIntervalMs=1000
PmaIntervalMs=10000
StateDirectory=/srv/nicd
IgnoreDevices=mlx5_9 mlx5_bond_* 0000:3B:00.1 5e:00.0
DropCounterAfter=0
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
FlapMode=down-and-back
FlapDownSec=30
FlapClearSec=0
DropSec=120
DropHoldSec=60
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
    EXPECT_EQ(c.daemon.ignore_devices,
              (std::vector<std::string>{"mlx5_9", "mlx5_bond_*", "0000:3b:00.1", "0000:5e:00.0"}))
        << "PCI addresses in the full, lower-case form";
    EXPECT_EQ(c.daemon.drop_counter_after, 0U);
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
    EXPECT_EQ(c.health.flap_mode, FlapMode::DownAndBack);
    EXPECT_EQ(c.health.flap_down_sec, 30U);
    EXPECT_EQ(c.health.flap_clear_sec, 0U) << "0: until an operator clears it";
    EXPECT_EQ(c.health.drop_sec, 120U);
    EXPECT_EQ(c.health.drop_hold_sec, 60U);
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
    EXPECT_EQ(
        onlyError("[daemon]\nIgnoreDevices=mlx5_1 /sys/class/infiniband/mlx5_2\n"),
        f + ":2: [daemon] IgnoreDevices=mlx5_1 /sys/class/infiniband/mlx5_2: expected RDMA "
            "device names, globs over them (rocep59s0f*) or PCI addresses (0000:3b:00.0 or "
            "3b:00.0), separated by spaces ('/sys/class/infiniband/mlx5_2' is none of these)");
    EXPECT_EQ(onlyError("[daemon]\nIgnoreDevices=3b:00\n"),
              f + ":2: [daemon] IgnoreDevices=3b:00: expected RDMA device names, globs over them "
                  "(rocep59s0f*) or PCI addresses (0000:3b:00.0 or 3b:00.0), separated by spaces "
                  "('3b:00' is none of these)");
    EXPECT_EQ(onlyError("[daemon]\nDropCounterAfter=-1\n"),
              f + ":2: [daemon] DropCounterAfter=-1: expected an integer from 0 to 1000");
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
    EXPECT_EQ(onlyError("[health]\nFlapMode=down\n"),
              f + ":2: [health] FlapMode=down: expected one of transitions, down-and-back");
    EXPECT_EQ(onlyError("[health]\nFlapDownSec=0\n"),
              f + ":2: [health] FlapDownSec=0: expected an integer from 1 to 86400");
    EXPECT_EQ(onlyError("[health]\nDropSec=4m\n"),
              f + ":2: [health] DropSec=4m: expected an integer from 0 to 86400");
    EXPECT_EQ(onlyError("[health]\nEventRingSize=4\n"),
              f + ":2: [health] EventRingSize=4: expected an integer from 16 to 1000000");
    EXPECT_EQ(onlyError("[counter:symbol_error]\nAction=call_someone\n"),
              f + ":2: [counter:symbol_error] Action=call_someone: expected one of: none "
                  "check_cable replace_cable_or_transceiver check_switch_port check_qos_config "
                  "check_congestion_config check_cooling check_workload reset_nic reseat_nic "
                  "replace_nic update_firmware reboot_node check_network_config check_host_config");
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

// A key given twice in one section is a mistake (which one did the operator mean?), not a silent
// override: both lines are named. Other sections, other devices and drop-ins are not duplicates.
TEST_F(ConfigLoad, AKeyGivenTwiceInOneSectionIsAnError)
{
    auto f = mainFile();
    EXPECT_EQ(onlyError("[daemon]\nPollIntervalMs=200\nPmaIntervalMs=1000\nPollIntervalMs=500\n"),
              f + ":4: [daemon] PollIntervalMs=500: given twice in this section (first on line 2); "
                  "give it once");
    EXPECT_EQ(onlyError("[provision]\nMode=verify\n[daemon]\nPollIntervalMs=200\n"
                        "[provision]\nMode=enforce\n"),
              f + ":6: [provision] Mode=enforce: given twice in this section (first on line 2); "
                  "give it once")
        << "a section opened twice is still one section";

    write("nicd.conf", "[provision]\nMode=verify\n[device:mlx5_0]\nMode=off\n"
                       "[device:mlx5_1]\nMode=off\n");
    write("nicd.conf.d/10-mode.conf", "[provision]\nMode=enforce\n");
    auto r = load();
    ASSERT_TRUE(r.config) << (r.errors.empty() ? "" : r.errors.front().format());
    EXPECT_EQ(r.config->provision.settings.mode, ProvisionMode::Enforce) << "the drop-in wins";
}

TEST(ConfigKeys, ListsEverySectionKind)
{
    auto keys = configKeys();
    EXPECT_EQ(keys.at("daemon"),
              (std::vector<std::string>{"PluginDirectory", "PollIntervalMs", "PmaIntervalMs",
                                        "StateDirectory", "IgnoreDevices", "DropCounterAfter"}));
    EXPECT_EQ(keys.at("plugin:"), std::vector<std::string>{"Enabled"});
    for (const char* s :
         {"daemon", "textfile", "provision", "journal", "health", "device:", "counter:"})
        EXPECT_FALSE(keys.at(s).empty()) << s;
}
