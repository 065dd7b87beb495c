// The per-object sections of the configuration: [device:IBDEV] overriding [provision] per
// device, [counter:NAME] for all devices or one, [plugin:NAME]'s free-form keys, and a bad value
// leaving the setting as it was.
#include "support/config_files.hpp"

#include <gtest/gtest.h>

using namespace nicd;
using ConfigLoad = nicd::test::ConfigLoad;

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
