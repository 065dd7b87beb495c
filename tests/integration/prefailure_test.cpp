// The pre-failure signals end to end on the simulated node: every injected fault yields exactly
// its condition, with its action, on the faulty device and nothing on the others; its clear
// recovers it; a healthy node, and a card whose sources are all absent, raise nothing. nicd runs
// --once against the tree (state kept between runs, as across restarts within one boot).
#include "sim.hpp"
#include "support/daemon_fixture.hpp"
#include "support/process.hpp"

#include <unistd.h>

#include <chrono>
#include <fstream>
#include <regex>
#include <set>
#include <thread>

#include <gtest/gtest.h>

using namespace nicd;
namespace fs = std::filesystem;

namespace {

// device|port|code|severity|action
using Conditions = std::set<std::string>;

const std::set<std::string> kSignalCodes = {
    "fec_margin",     "fec_uncorrectable",  "asic_temperature_high", "firmware_fatal",
    "firmware_error", "pcie_link_degraded", "port_rate_degraded",    "firmware_drift",
};

bool isSignal(const std::string& code)
{
    return kSignalCodes.contains(code) || code.starts_with("optics_") ||
           code.starts_with("devlink_reporter.");
}

class PreFailureTest : public test::DaemonTest {
protected:
    std::string tempTag() const override { return "prefail"; }
    std::string baseConfig() const override
    {
        return "[provision]\nMode=off\n[signals]\nIntervalSec=1\n";
    }

    std::string once()
    {
        std::string out;
        test::run(nicd({"--once"}), out);
        last_out_ = out;
        return textfileText();
    }
    // The pre-failure conditions of the textfile.
    Conditions signalConditions(const std::string& text)
    {
        Conditions out;
        std::regex re("nicd_condition_active\\{device=\"([^\"]*)\",port=\"([0-9]+)\",code=\"([^\"]"
                      "*)\",severity=\"([a-z]+)\",action=\"([a-z_]+)\"\\} 1");
        for (std::sregex_iterator it(text.begin(), text.end(), re), end; it != end; ++it)
            if (isSignal((*it)[3]))
                out.insert((*it)[1].str() + "|" + (*it)[2].str() + "|" + (*it)[3].str() + "|" +
                           (*it)[4].str() + "|" + (*it)[5].str());
        return out;
    }
    // Two reads apart in time with traffic between them (the FEC's BER needs two).
    Conditions judgeAfterTraffic()
    {
        once();
        std::this_thread::sleep_for(std::chrono::milliseconds(1100));
        sim::tick(root_, 10);
        return signalConditions(once());
    }

    std::string last_out_;
};

} // namespace

TEST_F(PreFailureTest, HealthyNodeRaisesNothingAndPublishesEverySignal)
{
    writeConfig("[textfile]\nCounters=all\n"); // every lane, threshold and reporter
    EXPECT_EQ(judgeAfterTraffic(), Conditions{}) << last_out_;
    auto text = test::readFile(root_ / "var/lib/prometheus/node-exporter/nicd.prom");
    for (const char* family :
         {"nicd_fec_corrected_bit_errors_total{device=\"mlx5_0\",port=\"1\",netdev=\"ens1f0np0\"}",
          "nicd_fec_info{device=\"mlx5_0\",port=\"1\",netdev=\"ens1f0np0\",mode=\"RS\"} 1",
          "nicd_fec_pre_ber_ratio{device=\"mlx5_0\"",
          "nicd_module_rx_power_watts{device=\"mlx5_0\",port=\"1\",netdev=\"ens1f0np0\",lane="
          "\"1\"}",
          "nicd_module_rx_power_threshold_watts{device=\"mlx5_0\",port=\"1\",netdev=\"ens1f0np0\","
          "level=\"low_alarm\"}",
          "nicd_module_temperature_celsius{device=\"mlx5_4\",port=\"1\",netdev=\"ib0\"}",
          "nicd_module_info{device=\"mlx5_bond_0\",port=\"1\",netdev=\"ens5f1np1\","
          "identifier=\"0x1e\",standard=\"cmis\",diagnostics=\"no\"} 1",
          "nicd_device_temperature_celsius{device=\"mlx5_0\",sensor=\"asic\"} 55",
          "nicd_device_temperature_crit_celsius{device=\"mlx5_0\",sensor=\"asic\"} 105",
          "nicd_devlink_reporter_healthy{device=\"mlx5_0\",handle=\"pci/0000:1a:00.0\","
          "reporter=\"fw_fatal\"} 1",
          "nicd_pcie_link_width_lanes{device=\"mlx5_0\",which=\"current\"} 16"})
        EXPECT_NE(text.find(family), std::string::npos) << family;
}

TEST_F(PreFailureTest, CardWithoutAnySourceStaysQuiet)
{
    // mlx5_6 (uncabled, an older kernel's card): no hwmon, module, FEC or devlink reporters.
    auto text = once();
    for (const char* absent :
         {"nicd_device_temperature_celsius{device=\"mlx5_6\"", "nicd_module_info{device=\"mlx5_6\"",
          "nicd_fec_info{device=\"mlx5_6\"", "nicd_devlink_reporter_healthy{device=\"mlx5_6\""})
        EXPECT_EQ(text.find(absent), std::string::npos) << absent;
    EXPECT_EQ(signalConditions(text), Conditions{});
    EXPECT_FALSE(std::regex_search(last_out_, std::regex("(^|\n)E "))) << "no error logged\n"
                                                                       << last_out_;
}

struct FaultCase {
    const char* fault;
    const char* dev;
    const char* expected; // device|port|code|severity|action
};

class PreFailureFaultTest : public PreFailureTest,
                            public ::testing::WithParamInterface<FaultCase> {};

TEST_P(PreFailureFaultTest, FaultRaisesExactlyItsConditionAndClearRecovers)
{
    const auto& c = GetParam();
    once();
    inject(c.fault, c.dev);
    EXPECT_EQ(judgeAfterTraffic(), Conditions{c.expected}) << last_out_;
    inject(std::string(c.fault) + "-clear", c.dev);
    EXPECT_EQ(judgeAfterTraffic(), Conditions{}) << last_out_;
}

INSTANTIATE_TEST_SUITE_P(
    Faults, PreFailureFaultTest,
    ::testing::Values(
        FaultCase{"fec-degrade", "mlx5_0",
                  "mlx5_0|1|fec_margin|degraded|replace_cable_or_transceiver"},
        FaultCase{"optics-rx-low", "mlx5_1",
                  "mlx5_1|1|optics_rx_power_low|degraded|replace_cable_or_transceiver"},
        FaultCase{"asic-hot", "mlx5_2", "mlx5_2|0|asic_temperature_high|degraded|check_cooling"},
        FaultCase{"fw-fatal", "mlx5_3", "mlx5_3|0|firmware_fatal|fatal|reset_nic"},
        FaultCase{"pcie-downtrain", "mlx5_0", "mlx5_0|0|pcie_link_degraded|degraded|reseat_nic"},
        FaultCase{"rate-downtrain", "mlx5_1", "mlx5_1|1|port_rate_degraded|degraded|check_cable"},
        FaultCase{"fw-drift", "mlx5_2", "mlx5_2|0|firmware_drift|degraded|update_firmware"},
        FaultCase{"optics-rx-low", "mlx5_bond_0",
                  "mlx5_bond_0|1|optics_rx_power_low|degraded|replace_cable_or_transceiver"},
        FaultCase{"fec-degrade", "mlx5_bond_0",
                  "mlx5_bond_0|1|fec_margin|degraded|replace_cable_or_transceiver"}),
    [](const auto& info) {
        std::string n = std::string(info.param.fault) + "_" + info.param.dev;
        for (auto& ch : n)
            if (!std::isalnum(static_cast<unsigned char>(ch)))
                ch = '_';
        return n;
    });
