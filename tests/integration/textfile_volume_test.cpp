// The series budget on a realistic node: 8 RoCE ports whose netdevs print what a ConnectX-7 with
// 64 channels prints (thousands of statistics each). By default a running nicd writes at most 60
// series per port and no per-channel statistic; Counters=all brings back every statistic the
// netdevs, hw_counters/ and counters/ hold and every series of the other families (each lane,
// each state, the thresholds); Counters=none keeps the verdicts and identities.
#include "sim.hpp"
#include "support/daemon_fixture.hpp"
#include "support/process.hpp"

#include <signal.h>
#include <unistd.h>

#include <fstream>
#include <map>
#include <regex>
#include <set>

#include <gtest/gtest.h>

using namespace nicd;
using namespace std::chrono_literals;
namespace fs = std::filesystem;

namespace {

constexpr int kPorts = 8;

class TextfileVolumeTest : public test::DaemonTest {
protected:
    std::string tempTag() const override { return "volume"; }
    sim::CreateOptions nodeOptions() const override { return {.devices = kPorts}; }
    void prepareNode() override { sim::tick(root_, 2); }
    std::string baseConfig() const override
    {
        return "[daemon]\nPollIntervalMs=500\nPmaIntervalMs=1000\n"
               "[signals]\nIntervalSec=1\n[textfile]\n";
    }

    void config(const std::string& textfile) { writeConfig(textfile); }
    std::string once()
    {
        std::string out;
        EXPECT_EQ(test::run(nicd({"--once"}), out), 0) << out;
        return textfile();
    }
    std::string textfile() const { return textfileText(); }
    static std::vector<std::string> series(const std::string& text)
    {
        std::vector<std::string> out;
        std::istringstream in(text);
        for (std::string line; std::getline(in, line);)
            if (line.starts_with("nicd_"))
                out.push_back(line);
        return out;
    }
    // The statistic names the simulated netdev prints (its `ethtool -S`).
    std::vector<std::string> ethtoolNames(const std::string& netdev) const
    {
        std::vector<std::string> out;
        std::istringstream in(test::readFile(root_ / "run/nicd-sim/ethtool" / netdev));
        for (std::string line; std::getline(in, line);) // "     name: value"
            if (auto colon = line.find(':'); line.starts_with(" ") && colon != std::string::npos)
                out.push_back(
                    line.substr(line.find_first_not_of(' '), colon - line.find_first_not_of(' ')));
        return out;
    }
    std::vector<std::string> netdevs() const
    {
        std::vector<std::string> out;
        for (const auto& e : fs::directory_iterator(root_ / "run/nicd-sim/ethtool"))
            out.push_back(e.path().filename().string());
        return out;
    }
};

} // namespace

TEST_F(TextfileVolumeTest, ByDefaultARunningNicdWritesAtMost60SeriesAPort)
{
    for (const auto& nd : netdevs())
        ASSERT_GT(ethtoolNames(nd).size(), 6000U) << nd << " prints what a 64-channel netdev does";
    config("");
    // The daemon as it runs on a node: QoS provisioned, every signal read twice (the pre-FEC BER
    // needs two), counters every half second.
    test::Process daemon(nicd(), {}, dir_ / "nicd.log");
    ASSERT_TRUE(test::waitFor(
        [&] {
            auto text = textfile();
            return text.find("\nnicd_fec_pre_ber_ratio{") != std::string::npos &&
                   text.find("\nnicd_qos_rounds_total{kind=\"apply\"} ") != std::string::npos &&
                   test::cyclesIn(text) >= 4;
        },
        60s))
        << textfile() << test::readFile(dir_ / "nicd.log");
    auto lines = series(textfile());
    daemon.signal(SIGTERM);
    EXPECT_EQ(daemon.wait(10s), 0);
    EXPECT_LE(lines.size(), 60U * kPorts) << lines.size() << " series on " << kPorts << " ports";
    size_t pauses = 0;
    for (const auto& l : lines) {
        EXPECT_FALSE(std::regex_search(l, std::regex("(stat|counter)=\"(rx|tx|ch)[0-9]+_")))
            << "a per-channel statistic: " << l;
        pauses += l.find("stat=\"rx_prio3_pause\"") != std::string::npos;
    }
    EXPECT_EQ(pauses, size_t{kPorts}) << "the lossless priority's pauses, on every port";
}

TEST_F(TextfileVolumeTest, AllBringsBackEveryStatisticTheNodeHolds)
{
    config("Counters=all\n");
    auto text = once();
    std::set<std::string> lines;
    std::map<std::string, size_t> per_netdev; // nicd_netdev_ethtool_total series
    size_t counter_series = 0;
    for (auto& l : series(text)) {
        lines.insert(l.substr(0, l.rfind(' ')));
        counter_series += l.starts_with("nicd_ib_port_") || l.starts_with("nicd_port_hw_") ||
                          l.starts_with("nicd_netdev_ethtool_");
        if (l.starts_with("nicd_netdev_ethtool_total{")) {
            auto at = l.find(",netdev=\"") + 9;
            ++per_netdev[l.substr(at, l.find('"', at) - at)];
        }
    }
    size_t expected = 0;
    for (int i = 0; i < kPorts; ++i) {
        std::string dev = "mlx5_" + std::to_string(i);
        auto port = fs::path(root_ / "sys/class/infiniband" / dev / "ports/1");
        for (const auto& e : fs::directory_iterator(port / "hw_counters")) {
            auto name = e.path().filename().string();
            auto family = name == "lifespan" ? "nicd_port_hw_value" : "nicd_port_hw_stat_total";
            EXPECT_TRUE(lines.contains(std::string(family) + "{device=\"" + dev +
                                       "\",port=\"1\",counter=\"" + name + "\"}"))
                << dev << " " << name;
            ++expected;
        }
        expected += std::distance(fs::directory_iterator(port / "counters"), {});
    }
    for (const auto& nd : netdevs()) {
        auto names = ethtoolNames(nd);
        expected += names.size();
        EXPECT_EQ(per_netdev[nd], names.size()) << nd;
        for (const char* stat : {"rx0_packets", "tx63_xdp_cqes", "rx_prio7_buf_discard"})
            EXPECT_TRUE(std::find(names.begin(), names.end(), stat) != names.end()) << stat;
        EXPECT_NE(text.find(",netdev=\"" + nd + "\",stat=\"ch63_eq_rearm\"} "), std::string::npos);
    }
    EXPECT_EQ(counter_series, expected) << "every statistic once, nothing else";

    // And every series of the other families: each state, lane, threshold and health reporter.
    std::map<std::string, size_t> families;
    for (const auto& l : lines)
        ++families[l.substr(0, l.find('{'))];
    const std::pair<const char*, size_t> per_port[] = {
        {"nicd_port_congestion_state", 6},
        {"nicd_module_rx_power_watts", 4},
        {"nicd_module_tx_power_watts", 4},
        {"nicd_module_tx_bias_amperes", 4},
        {"nicd_module_rx_power_threshold_watts", 2},
        {"nicd_module_supply_volts", 1},
        {"nicd_devlink_reporter_healthy", 5},
        {"nicd_devlink_reporter_errors_total", 5},
        {"nicd_pcie_link_width_lanes", 3},
        {"nicd_device_temperature_crit_celsius", 1},
        {"nicd_port_phys_state", 1},
        {"nicd_dropped_files", 1},
    };
    for (const auto& [family, n] : per_port)
        EXPECT_EQ(families[family], n * kPorts) << family;
}

TEST_F(TextfileVolumeTest, NoneKeepsVerdictsAndIdentitiesOnly)
{
    config("Counters=none\n");
    auto text = once();
    for (const auto& l : series(text))
        EXPECT_FALSE(
            std::regex_search(l, std::regex("^nicd_(ib_port|port_hw|netdev_ethtool|source)")))
            << l;
    for (int i = 0; i < kPorts; ++i) {
        std::string dev = "mlx5_" + std::to_string(i);
        EXPECT_NE(text.find("\nnicd_port_health{device=\"" + dev + "\",port=\"1\"} 0\n"),
                  std::string::npos)
            << dev;
        EXPECT_NE(text.find("\nnicd_device_info{device=\"" + dev + "\","), std::string::npos);
        EXPECT_NE(text.find("\nnicd_port_congestion_state{device=\"" + dev + "\","),
                  std::string::npos);
    }
    EXPECT_NE(text.find("\nnicd_node_health 0\n"), std::string::npos);
}
