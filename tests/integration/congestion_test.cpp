// The congestion verdict end to end: nicd-sim's scenarios move the real counter files, `nicd
// --once` runs a few seconds apart (the window is carried in the state file) judge them; each
// scenario yields its verdict and condition on the injected port only, the busy healthy ports
// (ECN marks and CNPs at the simulator's default rates) stay ecn_working without a condition, and
// clearing the scenarios recovers once the window has moved past them.
#include "sim.hpp"
#include "support/daemon_fixture.hpp"
#include "support/process.hpp"

#include <unistd.h>

#include <chrono>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <thread>

#include <gtest/gtest.h>

using namespace nicd;
namespace fs = std::filesystem;

namespace {

class CongestionTest : public test::DaemonTest {
protected:
    std::string tempTag() const override { return "congestion"; }
    std::string baseConfig() const override
    {
        // Counters=all: the window the verdict covered (nicd_port_congestion_window_seconds).
        return "[provision]\nMode=off\n[signals]\nEnable=no\n[health]\nCongestionWindowSec=2\n"
               "[textfile]\nCounters=all\n";
    }

    // Two runs a window apart with 2 s of traffic between them.
    void window()
    {
        once();
        sim::tick(root_, 2);
        std::this_thread::sleep_for(std::chrono::milliseconds(2100));
        once();
    }
    // congest-ecn, congest-pfc-only, pause-storm and lossy on `devs` in that order, a window
    // later: each device's verdict, in that order.
    std::vector<std::string> scenariosOn(const std::vector<std::string>& devs)
    {
        const char* scenarios[] = {"congest-ecn", "congest-pfc-only", "pause-storm", "lossy"};
        for (size_t i = 0; i < devs.size(); ++i)
            inject(scenarios[i], devs[i]);
        window();
        auto s = states();
        std::vector<std::string> out;
        for (const auto& d : devs)
            out.push_back(s.count(d) ? s.at(d) : "none");
        return out;
    }
    std::string textfile() const { return textfileText(); }
    // device -> the state whose one-hot sample is 1.
    std::map<std::string, std::string> states() const
    {
        std::map<std::string, std::string> out;
        auto text = textfile();
        std::regex re(R"re(nicd_port_congestion_state\{device="([^"]+)",port="1",)re"
                      R"re(state="([a-z_]+)"\} 1)re");
        for (std::sregex_iterator it(text.begin(), text.end(), re), end; it != end; ++it)
            out[(*it)[1]] = (*it)[2];
        return out;
    }
    // "device code severity action" of every congestion condition.
    std::set<std::string> conditions() const
    {
        std::set<std::string> out;
        auto text = textfile();
        std::regex re(R"re(nicd_condition_active\{device="([^"]+)",port="1",)re"
                      R"re(code="(congestion\.[a-z_]+)",severity="([a-z]+)",)re"
                      R"re(action="([a-z_]+)"\} 1)re");
        for (std::sregex_iterator it(text.begin(), text.end(), re), end; it != end; ++it)
            out.insert((*it)[1].str() + " " + (*it)[2].str() + " " + (*it)[3].str() + " " +
                       (*it)[4].str());
        return out;
    }
};

} // namespace

TEST_F(CongestionTest, EachScenarioOnItsPortOnlyAndTheClearsRecover)
{
    window();
    auto healthy = states();
    EXPECT_EQ(healthy.at("mlx5_0"), "ecn_working") << "the busy healthy node";
    EXPECT_EQ(healthy.count("mlx5_4"), 0U) << "InfiniBand: no verdict";
    EXPECT_TRUE(conditions().empty());

    EXPECT_EQ(scenariosOn({"mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3"}),
              (std::vector<std::string>{"ecn_working", "pfc_only", "pause_storm", "lossy"}));
    EXPECT_EQ(states().at("mlx5_bond_0"), "ecn_working");
    EXPECT_EQ(conditions(),
              (std::set<std::string>{"mlx5_1 congestion.pfc_only degraded check_congestion_config",
                                     "mlx5_2 congestion.pause_storm degraded check_switch_port",
                                     "mlx5_3 congestion.lossy degraded check_qos_config"}));
    auto text = textfile();
    // 15% of the 2 s of traffic paused, over the time between the two runs' reads (the window
    // nicd reports: 2.1 s and what the runs take, longer in a sanitizer build).
    auto value = [&](const std::string& series) {
        std::smatch m;
        const std::regex re(std::regex_replace(series, std::regex(R"([{}])"), R"(\$&)") +
                            R"( ([0-9.e+-]+))");
        EXPECT_TRUE(std::regex_search(text, m, re)) << series;
        return m.empty() ? -1.0 : std::stod(m[1]);
    };
    const double covered =
        value(R"(nicd_port_congestion_window_seconds{device="mlx5_1",port="1"})");
    EXPECT_GE(covered, 2.0);
    EXPECT_NEAR(value(R"(nicd_port_paused_ratio{device="mlx5_1",port="1",direction="rx"})"),
                0.15 * 2 / covered, 0.01)
        << "15% of 2 s of traffic over a window of " << covered << " s";
    EXPECT_TRUE(
        std::regex_search(text, std::regex(R"re(nicd_port_ecn_marked_packets_per_second)re"
                                           R"re(\{device="mlx5_0",port="1"\} [1-9][0-9]{4})re")));

    for (const char* dev : {"mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3"})
        for (const char* f :
             {"congest-ecn-clear", "congest-pfc-only-clear", "pause-storm-clear", "lossy-clear"})
            inject(f, dev);
    window();
    EXPECT_TRUE(conditions().empty()) << textfile();
    EXPECT_EQ(states().at("mlx5_1"), "ecn_working");
}

namespace {

// Four Broadcom BCM57608 PFs: the scenarios move bnxt's own statistics (rx_pfc_ena_frames_pri3,
// pfc_pri3_rx_duration_us, np_cnp_pkts, continuous_roce_pause_events, ...), which the bnxt
// plugin says the meaning of. bnxt has no storm warning: its storm evidence is the firmware's
// continuous-pause event, a storm error to the plugin, so its pause storm is fatal where mlx5's
// warning is degraded.
class BnxtCongestionTest : public CongestionTest {
protected:
    std::string tempTag() const override { return "congestion-bnxt"; }
    sim::CreateOptions nodeOptions() const override { return {.devices = 4, .vendors = "bnxt"}; }
};

// Both vendors on one node (nicd-sim's default node with --vendor mlx5,bnxt), both plugins
// loaded: each gives its verdict on its own port.
class MixedCongestionTest : public CongestionTest {
protected:
    std::string tempTag() const override { return "congestion-mixed"; }
    sim::CreateOptions nodeOptions() const override { return {.vendors = "mlx5,bnxt"}; }
};

} // namespace

TEST_F(BnxtCongestionTest, EachScenarioGivesItsVerdictOnABnxtPort)
{
    window();
    auto healthy = states();
    EXPECT_EQ(healthy.at("bnxt_re0"), "ecn_working") << "the busy healthy node";
    EXPECT_TRUE(conditions().empty());

    EXPECT_EQ(scenariosOn({"bnxt_re0", "bnxt_re1", "bnxt_re2", "bnxt_re3"}),
              (std::vector<std::string>{"ecn_working", "pfc_only", "pause_storm", "lossy"}));
    EXPECT_EQ(conditions(), (std::set<std::string>{
                                "bnxt_re1 congestion.pfc_only degraded check_congestion_config",
                                "bnxt_re2 congestion.pause_storm fatal check_switch_port",
                                "bnxt_re3 congestion.lossy degraded check_qos_config"}));
}

TEST_F(MixedCongestionTest, BothVendorsGiveTheVerdictOnOneNode)
{
    window();
    auto healthy = states();
    EXPECT_EQ(healthy["bnxt_re0"], "ecn_working") << "a busy healthy bnxt port\n" << textfile();
    EXPECT_EQ(healthy["mlx5_0"], "ecn_working") << textfile();
    EXPECT_TRUE(conditions().empty()) << textfile();

    inject("congest-pfc-only", "bnxt_re0");
    inject("congest-pfc-only", "mlx5_0");
    window();
    auto s = states();
    EXPECT_EQ(s["bnxt_re0"], "pfc_only") << textfile();
    EXPECT_EQ(s["mlx5_0"], "pfc_only") << textfile();
    EXPECT_EQ(conditions(), (std::set<std::string>{
                                "bnxt_re0 congestion.pfc_only degraded check_congestion_config",
                                "mlx5_0 congestion.pfc_only degraded check_congestion_config"}));
}
