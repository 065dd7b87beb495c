// `nicctl show DEV` from GetManagedObjects-shaped data: the pre-failure signals as the bus
// carries them, printed for a person and as JSON.
#include "device_report.hpp"
#include "node_view.hpp"

#include <gtest/gtest.h>

using namespace nicctl;

namespace {

using Props = std::map<std::string, sdbus::Variant>;
using ConditionWire = sdbus::Struct<std::string, std::string, uint32_t, std::string, std::string,
                                    std::string, uint64_t, std::string>;
using PcieWire = sdbus::Struct<double, uint32_t, double, uint32_t>;
using ReporterWire = sdbus::Struct<std::string, std::string, std::string, uint64_t, uint64_t>;
using UplinkWire =
    sdbus::Struct<std::string, std::string, std::string, std::map<std::string, double>>;

ManagedObjects showNode()
{
    ManagedObjects o;
    ConditionWire rx{"optics_rx_power_low",
                     "degraded",
                     1,
                     "signal",
                     "ens1f0np0 lane 2: RX power -9.5 dBm below the module's low warning -9.0 dBm",
                     "clean or replace",
                     5,
                     "replace_cable_or_transceiver"};
    o[sdbus::ObjectPath("/io/nicd/Nicd1/device/mlx5_0")]["io.nicd.Nicd1.Device"] = Props{
        {"Name", sdbus::Variant(std::string("mlx5_0"))},
        {"PciAddress", sdbus::Variant(std::string("0000:1a:00.0"))},
        {"Health", sdbus::Variant(std::string("degraded"))},
        {"Conditions", sdbus::Variant(std::vector<ConditionWire>{rx})},
        {"Temperatures",
         sdbus::Variant(std::map<std::string, double>{{"asic", 61.5}, {"Module0", 40}})},
        {"TemperatureLimits", sdbus::Variant(std::map<std::string, double>{{"asic", 105}})},
        {"PcieLink", sdbus::Variant(PcieWire{16, 8, 32, 16})},
        {"HealthReporters",
         sdbus::Variant(std::vector<ReporterWire>{{"pci/0000:1a:00.0", "fw", "healthy", 0, 0},
                                                  {"pci/0000:1a:00.0", "tx", "healthy", 3, 3}})}};
    std::map<std::string, double> values{
        {"fec_pre_ber", 3.1e-6},          {"fec_pre_ber_limit", 2.4e-4},
        {"fec_uncorrectable_blocks", 0},  {"module_temperature_celsius", 47.5},
        {"lane1_rx_power_watts", 0.001},  {"lane2_rx_power_watts", 0.000112},
        {"lane2_tx_bias_amperes", 0.0535}};
    o[sdbus::ObjectPath("/io/nicd/Nicd1/device/mlx5_0/port/1")]["io.nicd.Nicd1.Port"] =
        Props{{"Device", sdbus::Variant(std::string("mlx5_0"))},
              {"Number", sdbus::Variant(uint32_t{1})},
              {"State", sdbus::Variant(std::string("ACTIVE"))},
              {"Health", sdbus::Variant(std::string("degraded"))},
              {"Conditions", sdbus::Variant(std::vector<ConditionWire>{rx})},
              {"Uplinks", sdbus::Variant(std::vector<UplinkWire>{
                              {"ens1f0np0", "RS", "cmis", values}, {"ens1f1np1", "", "", {}}})}};
    return o;
}

} // namespace

TEST(NicctlShow, SignalsAreReadFromTheBus)
{
    auto view = nodeViewOf(showNode());
    ASSERT_EQ(view.devices.size(), 1U);
    const auto& d = view.devices[0];
    EXPECT_EQ(d.signals.temperatures.at("asic"), 61.5);
    EXPECT_EQ(d.signals.temperature_limits.size(), 1U);
    EXPECT_EQ(d.signals.pcie.current_width, 8U);
    EXPECT_EQ(d.signals.pcie.capable_gts, 32);
    ASSERT_EQ(d.signals.reporters.size(), 2U);
    EXPECT_EQ(d.signals.reporters[1].errors, 3U);
    ASSERT_EQ(d.ports.size(), 1U);
    ASSERT_EQ(d.ports[0].uplinks.size(), 2U);
    EXPECT_EQ(d.ports[0].uplinks[0].module, "cmis");
    EXPECT_EQ(d.ports[0].uplinks[0].values.at("lane2_rx_power_watts"), 0.000112);
}

TEST(NicctlShow, AnOlderNicdWithoutSignalsReadsAsNone)
{
    auto o = showNode();
    auto& dev = o[sdbus::ObjectPath("/io/nicd/Nicd1/device/mlx5_0")]["io.nicd.Nicd1.Device"];
    dev.erase("Temperatures");
    dev["PcieLink"] = sdbus::Variant(std::string("not a struct"));
    o[sdbus::ObjectPath("/io/nicd/Nicd1/device/mlx5_0/port/1")]["io.nicd.Nicd1.Port"].erase(
        "Uplinks");
    auto d = nodeViewOf(o).devices.at(0);
    EXPECT_TRUE(d.signals.temperatures.empty());
    EXPECT_EQ(d.signals.pcie.current_gts, 0);
    EXPECT_TRUE(d.ports.at(0).uplinks.empty());
    auto text = renderDevice(d, false);
    EXPECT_NE(text.find("  pcie:        -\n"), std::string::npos) << text;
    EXPECT_EQ(text.find("temperature:"), std::string::npos) << text;
}

TEST(NicctlShow, PrintsConditionsAndEverySignal)
{
    auto text = renderDevice(nodeViewOf(showNode()).devices.at(0), false);
    for (const char* line :
         {"mlx5_0 (0000:1a:00.0, -, firmware -): - -, degraded\n",
          "    degraded port 1 optics_rx_power_low: ens1f0np0 lane 2: RX power -9.5 dBm below the "
          "module's low warning -9.0 dBm [action: replace_cable_or_transceiver]\n",
          "  pcie:        16 GT/s x8 (can train 32 GT/s x16)\n",
          "  temperature: Module0 40.0 °C, asic 61.5 °C (crit 105.0 °C)\n",
          "  firmware:    fw healthy, tx healthy (errors 3, recovers 3)\n",
          "  ens1f0np0    FEC RS, pre-FEC BER 3.10e-06 (limit 2.40e-04), uncorrectable blocks 0\n",
          "               module cmis, 47.5 °C\n",
          "               1              -          -   0.00 dBm\n",
          "               2       53.50 mA          -  -9.51 dBm\n",
          "  ens1f1np1    no FEC statistics\n"})
        EXPECT_NE(text.find(line), std::string::npos) << line << "\nnot in\n" << text;
}

TEST(NicctlShow, JsonCarriesTheSameValues)
{
    auto j = deviceJson(nodeViewOf(showNode()).devices.at(0));
    EXPECT_EQ(j["temperatures"]["asic"], 61.5);
    EXPECT_EQ(j["pcie"]["capable_width"], 16);
    EXPECT_EQ(j["reporters"][1]["name"], "tx");
    EXPECT_EQ(j["ports"][0]["uplinks"][0]["values"]["fec_pre_ber"], 3.1e-6);
    EXPECT_EQ(j["ports"][0]["action"], "replace_cable_or_transceiver");
}

// JSON has nulls and booleans where the table has words: no action is null, not "-"; readiness
// not judged is null.
TEST(NicctlShow, JsonSaysNothingWithNullNotADash)
{
    auto o = showNode();
    auto& p = o[sdbus::ObjectPath("/io/nicd/Nicd1/device/mlx5_0/port/1")]["io.nicd.Nicd1.Port"];
    p["Ready"] = sdbus::Variant(std::string("yes"));
    auto d = nodeViewOf(o).devices.at(0);
    d.conditions.clear();
    for (auto& port : d.ports)
        port.conditions.clear();
    auto j = deviceJson(d);
    EXPECT_TRUE(j["ports"][0]["action"].is_null()) << j["ports"][0].dump();
    EXPECT_TRUE(j["ports"][0]["reason"].is_null());
    EXPECT_EQ(j["ports"][0]["readiness"]["ready"], true);
    auto unjudged = deviceJson(nodeViewOf(showNode()).devices.at(0));
    EXPECT_TRUE(unjudged["ports"][0]["readiness"]["ready"].is_null()) << "not judged";
}

TEST(NicctlShow, PowerInDbm)
{
    EXPECT_EQ(dbmOf(0.001), "0.00 dBm");
    EXPECT_EQ(dbmOf(0.0001), "-10.00 dBm");
    EXPECT_EQ(dbmOf(0), "-inf dBm");
}

// A multi-plane port lists its planes, each with its own rate; a port without planes none.
TEST(NicctlShow, ListsAMultiPlanePortsPlanes)
{
    using PlaneWire = sdbus::Struct<uint32_t, std::string, std::string, std::string>;
    auto o = showNode();
    auto& p = o[sdbus::ObjectPath("/io/nicd/Nicd1/device/mlx5_0/port/1")]["io.nicd.Nicd1.Port"];
    p["Planes"] =
        sdbus::Variant(std::vector<PlaneWire>{{1, "smi0", "ACTIVE", "200 Gb/sec (1X XDR)"},
                                              {2, "smi0", "ACTIVE", "100 Gb/sec (1X NDR)"}});
    auto d = nodeViewOf(o).devices.at(0);
    auto text = renderDevice(d, false);
    for (const char* line :
         {"  planes:      2 (smi0; a plane's state is the port's)\n",
          "    plane 1    200 Gb/sec (1X XDR)\n", "    plane 2    100 Gb/sec (1X NDR)\n"})
        EXPECT_NE(text.find(line), std::string::npos) << line << "\nnot in\n" << text;
    auto j = deviceJson(d);
    EXPECT_EQ(j["ports"][0]["planes"][1]["rate"], "100 Gb/sec (1X NDR)");
    EXPECT_EQ(j["ports"][0]["planes"][1]["smi_device"], "smi0");
    EXPECT_EQ(renderDevice(nodeViewOf(showNode()).devices.at(0), false).find("planes:"),
              std::string::npos);
}

TEST(NicctlShow, ListsEachReadinessCheckWithWhatItSaw)
{
    using CheckWire = sdbus::Struct<std::string, std::string, std::string>;
    auto o = showNode();
    auto& p = o[sdbus::ObjectPath("/io/nicd/Nicd1/device/mlx5_0/port/1")]["io.nicd.Nicd1.Port"];
    p["Ready"] = sdbus::Variant(std::string("no"));
    p["ReadyChecks"] = sdbus::Variant(
        std::vector<CheckWire>{{"gid", "ok", "gid 3: RoCE v2 ::ffff:10.0.0.5 on ens1f0np0"},
                               {"acs", "failed", "ACS Request Redirect on bridge 0000:19:01.0"},
                               {"numa", "skipped", "no GPU to pair with"}});
    auto d = nodeViewOf(o).devices.at(0);
    auto text = renderDevice(d, false);
    for (const char* line :
         {"  ready:       no\n",
          "    gid        ok       gid 3: RoCE v2 ::ffff:10.0.0.5 on ens1f0np0\n",
          "    acs        failed   ACS Request Redirect on bridge 0000:19:01.0\n",
          "    numa       skipped  no GPU to pair with\n"})
        EXPECT_NE(text.find(line), std::string::npos) << line << "\nnot in\n" << text;
    auto j = deviceJson(d);
    EXPECT_EQ(j["ports"][0]["readiness"]["ready"], false) << "a boolean, not the word";
    EXPECT_EQ(j["ports"][0]["readiness"]["checks"][1]["verdict"], "failed");
    // A port the checks do not judge prints no readiness lines.
    EXPECT_EQ(renderDevice(nodeViewOf(showNode()).devices.at(0), false).find("ready:"),
              std::string::npos);
}

// Every QoS setting of the port with its result, as the bus carries them: bnxt's ETS (a setting
// of its own since [plugin:bnxt] SetEts=) and ECN it gives nicd no interface for.
TEST(NicctlShow, ListsEachQosSettingWithItsResultUnsupportedApart)
{
    auto o = showNode();
    auto& p = o[sdbus::ObjectPath("/io/nicd/Nicd1/device/mlx5_0/port/1")]["io.nicd.Nicd1.Port"];
    p["QosObserved"] = sdbus::Variant(std::map<std::string, std::string>{
        {"ets", "prio_tc 0,0,0,1,0,0,0,0, tc0 ets 50%, tc1 ets 50%"},
        {"ecn_np", "unsupported"},
        {"pfc", "4"}});
    p["QosCompliant"] = sdbus::Variant(
        std::map<std::string, bool>{{"ets", true}, {"ecn_np", false}, {"pfc", false}});
    auto text = renderDevice(nodeViewOf(o).devices.at(0), false);
    for (const char* line :
         {"  qos:\n",
          "    ets          compliant    prio_tc 0,0,0,1,0,0,0,0, tc0 ets 50%, "
          "tc1 ets 50%\n",
          "    ecn_np       unsupported  unsupported\n", "    pfc          noncompliant 4\n"})
        EXPECT_NE(text.find(line), std::string::npos) << line << "\nnot in\n" << text;
    EXPECT_EQ(renderDevice(nodeViewOf(showNode()).devices.at(0), false).find("qos:"),
              std::string::npos)
        << "a port nicd has not read prints none";
}
