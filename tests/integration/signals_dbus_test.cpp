// The pre-failure signals where an operator looks for them: the D-Bus properties (busctl) and
// `nicctl show DEV`, on nicd serving the simulated node; an injected fault shows there with its
// condition and action, on its device only, and goes away when cleared.
#include "sim.hpp"
#include "support/bus_fixture.hpp"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

using namespace nicd;
using namespace std::chrono_literals;

namespace {

class SignalsOnBusTest : public test::NicdOnBusTest {
protected:
    std::string extraConfig() const override
    {
        return "[provision]\nMode=off\n[signals]\nIntervalSec=1\n";
    }
    // Waits until the first slow read is on the bus.
    void waitForSignals()
    {
        ASSERT_TRUE(test::waitFor(
            [&] {
                return property("/io/nicd/Nicd1/device/mlx5_0", "io.nicd.Nicd1.Device",
                                "Temperatures")
                           .find("asic") != std::string::npos;
            },
            15s))
            << test::readFile(dir_ / "nicd.log");
    }
};

} // namespace

TEST_F(SignalsOnBusTest, PropertiesCarryEverySignal)
{
    waitForSignals();
    const std::string dev = "/io/nicd/Nicd1/device/mlx5_0";
    EXPECT_EQ(property(dev, "io.nicd.Nicd1.Device", "Temperatures"), "a{sd} 1 \"asic\" 55\n");
    EXPECT_EQ(property(dev, "io.nicd.Nicd1.Device", "TemperatureLimits"), "a{sd} 1 \"asic\" 105\n");
    EXPECT_EQ(property(dev, "io.nicd.Nicd1.Device", "PcieLink"), "(dudu) 32 16 32 16\n");
    auto reporters = property(dev, "io.nicd.Nicd1.Device", "HealthReporters");
    EXPECT_NE(reporters.find("\"pci/0000:1a:00.0\" \"fw_fatal\" \"healthy\" 0 0"),
              std::string::npos)
        << reporters;

    auto [rc, json] = busctl({"--json=short", "get-property", "io.nicd.Nicd1", dev + "/port/1",
                              "io.nicd.Nicd1.Port", "Uplinks"});
    ASSERT_EQ(rc, 0) << json;
    auto uplinks = nlohmann::json::parse(json)["data"];
    ASSERT_EQ(uplinks.size(), 1U) << json;
    EXPECT_EQ(uplinks[0][0], "ens1f0np0");
    EXPECT_EQ(uplinks[0][1], "RS");
    EXPECT_EQ(uplinks[0][2], "cmis");
    for (const char* key : {"fec_corrected_blocks", "fec_uncorrectable_blocks",
                            "module_temperature_celsius", "lane4_rx_power_watts"})
        EXPECT_TRUE(uplinks[0][3].contains(key)) << key << " in " << json;

    // A RoCE LAG port has one row per member; the uncabled old card has nothing to show.
    auto lag =
        property("/io/nicd/Nicd1/device/mlx5_bond_0/port/1", "io.nicd.Nicd1.Port", "Uplinks");
    EXPECT_NE(lag.find("\"ens5f0np0\" \"RS\" \"sff-8636\""), std::string::npos) << lag;
    // The member without a module's diagnostics has its FEC values only (3, and 5 once two FEC
    // reads give the pre-FEC BER and its limit).
    const auto member = lag.find("\"ens5f1np1\" \"RS\" \"no-diagnostics\" ");
    ASSERT_NE(member, std::string::npos) << lag;
    EXPECT_NE(lag.find("\"fec_corrected_blocks\"", member), std::string::npos) << lag;
    EXPECT_EQ(lag.find("\"module_", member), std::string::npos) << lag;
    EXPECT_EQ(property("/io/nicd/Nicd1/device/mlx5_6", "io.nicd.Nicd1.Device", "Temperatures"),
              "a{sd} 0\n");
}

TEST_F(SignalsOnBusTest, NicctlShowsADeviceInFull)
{
    waitForSignals();
    auto [rc, out] = nicctl({"show", "mlx5_0"});
    EXPECT_EQ(rc, 0) << out;
    for (const char* line :
         {"mlx5_0 (0000:1a:00.0, mlx5_core, firmware ",
          "  pcie:        32 GT/s x16 (can train 32 GT/s x16)\n",
          "  temperature: asic 55.0 °C (crit 105.0 °C)\n",
          "  firmware:    fw healthy, fw_fatal healthy", "port 1: ens1f0np0 ACTIVE ",
          "  ens1f0np0    FEC RS, ", "               module cmis, "})
        EXPECT_NE(out.find(line), std::string::npos) << line << " not in\n" << out;
    EXPECT_EQ(out.find("conditions:"), std::string::npos) << out;

    auto [jrc, json] = nicctl({"--json", "show", "mlx5_bond_0"});
    EXPECT_EQ(jrc, 0) << json;
    auto j = nlohmann::json::parse(json);
    EXPECT_EQ(j["ports"][0]["uplinks"].size(), 2U) << json;

    auto [nrc, none] = nicctl({"show", "mlx5_99"});
    EXPECT_EQ(nrc, 3);
    EXPECT_NE(none.find("no device mlx5_99"), std::string::npos) << none;
}

TEST_F(SignalsOnBusTest, AnInjectedFaultShowsOnItsDeviceAndClears)
{
    waitForSignals();
    inject("optics-rx-low", "mlx5_1");
    ASSERT_TRUE(test::waitFor(
        [&] {
            return nicctl({"show", "mlx5_1"}).first == 1;
        },
        15s))
        << nicctl({"show", "mlx5_1"}).second;
    auto out = nicctl({"show", "mlx5_1"}).second;
    EXPECT_NE(out.find("    degraded port 1 optics_rx_power_low: ens2f0np0 lane 1: RX power "),
              std::string::npos)
        << out;
    EXPECT_NE(out.find("[action: replace_cable_or_transceiver]"), std::string::npos) << out;
    EXPECT_NE(out.find("               1 "), std::string::npos) << out;
    EXPECT_NE(out.find("-9.47 dBm\n"), std::string::npos) << out;
    EXPECT_EQ(nicctl({"show", "mlx5_0"}).first, 0);

    inject("optics-rx-low-clear", "mlx5_1");
    ASSERT_TRUE(test::waitFor(
        [&] {
            return nicctl({"show", "mlx5_1"}).first == 0;
        },
        15s))
        << nicctl({"show", "mlx5_1"}).second;
    EXPECT_EQ(nicctl({"show", "mlx5_1"}).second.find("optics_rx_power_low"), std::string::npos);
}
