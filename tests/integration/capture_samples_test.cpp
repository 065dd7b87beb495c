// Counter samples: a node whose counters move (nicd-sim run, congestion scenarios injected) is
// captured with --samples 3 --interval-ms 1000; `nicd-sim run` on the capture plays the samples
// at their recorded spacing and stops on the last; nicd --once before and after the play judges
// the rates as on the node: the scenarios' verdicts, and the paused share near what the simulator
// made it.
#include "files.hpp"
#include "sim.hpp"
#include "support/capture_runs.hpp"
#include "support/temp_dir.hpp"

#include <nlohmann/json.hpp>
#include <signal.h>

#include <chrono>
#include <regex>
#include <thread>

#include <gtest/gtest.h>

using namespace nicd;
namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {

class CaptureSamples : public test::TempDirTest {
protected:
    CaptureSamples() : TempDirTest("capture-samples", test::TempOn::Memory) {}

    // device -> the congestion state whose one-hot sample is 1 (port 1).
    static std::map<std::string, std::string> states(const std::string& text)
    {
        std::map<std::string, std::string> out;
        std::regex re(R"re(nicd_port_congestion_state\{device="([^"]+)",port="1",)re"
                      R"re(state="([a-z_]+)"\} 1)re");
        for (std::sregex_iterator it(text.begin(), text.end(), re), end; it != end; ++it)
            out[(*it)[1]] = (*it)[2];
        return out;
    }
};

} // namespace

TEST_F(CaptureSamples, PlayedSamplesGiveTheNodesRatesAndVerdicts)
{
    const auto src = dir_ / "src";
    const auto cap = dir_ / "cap";
    sim::create(src, {});
    // Counters=all: the window the congestion verdict covered
    // (nicd_port_congestion_window_seconds).
    test::writeNodeConfig(
        src, "[signals]\nEnable=no\n[health]\nCongestionWindowSec=2\n[textfile]\nCounters=all\n");
    std::string out;
    for (auto [fault, dev] : {std::pair{"congest-pfc-only", "mlx5_1"},
                              std::pair{"pause-storm", "mlx5_2"}, std::pair{"lossy", "mlx5_3"}})
        ASSERT_EQ(test::sim({"inject", src.string(), fault, dev}, out), 0) << out;
    {
        // The node's traffic, in real time, while it is captured.
        test::Process traffic({NICD_SIM_BIN, "run", src.string(), "--interval-ms", "100"});
        std::this_thread::sleep_for(300ms);
        ASSERT_EQ(test::captureNode(src, cap, out, {"--samples", "3", "--interval-ms", "1000"}), 0)
            << out;
        traffic.signal(SIGTERM);
        EXPECT_EQ(traffic.wait(5s), 0);
    }
    auto manifest =
        nlohmann::json::parse(test::readFile(cap / "run/nicd-sim/capture/manifest.json"));
    ASSERT_EQ(manifest["samples"]["count"], 3);
    auto offsets = manifest["samples"]["offsets_s"].get<std::vector<double>>();
    ASSERT_EQ(offsets.size(), 3U);
    // Never early; late only by what a read takes (a busy or sanitized build: seconds).
    EXPECT_GE(offsets[1], 0.99);
    EXPECT_GE(offsets[2], 1.99);
    EXPECT_LT(offsets[2], 6.0) << "a sample starts when due, however long the one before took";

    auto first = test::once(cap);
    ASSERT_EQ(first.rc, 0) << first.output;
    const auto counter = cap / "sys/class/infiniband/mlx5_1/ports/1/counters/port_xmit_data";
    const auto at_sample_1 = test::readFile(counter);
    auto start = std::chrono::steady_clock::now();
    ASSERT_EQ(test::sim({"run", cap.string()}, out), 0) << out; // plays 2 and 3, then stops
    auto played = std::chrono::steady_clock::now() - start;
    EXPECT_GE(played, 1800ms) << "samples played at their recorded spacing";
    EXPECT_LT(played, 10s);
    EXPECT_EQ(test::readFile(cap / "run/nicd-sim/capture/position"), "3\n");
    auto sample3 =
        nlohmann::json::parse(test::readFile(cap / "run/nicd-sim/capture/samples/0003.json"));
    auto sample1 =
        nlohmann::json::parse(test::readFile(cap / "run/nicd-sim/capture/samples/0001.json"));
    EXPECT_LT(sample3["files"].size(), sample1["files"].size() / 2)
        << "a later sample holds what moved only (error counters stand still)";
    // The counter as the last sample that recorded it holds it (a sample holds what moved since
    // the one before: on a loaded machine the traffic may not have moved it by sample 3).
    const std::string rel = fs::relative(fs::canonical(counter), cap).string();
    std::string recorded;
    for (const char* n : {"0003", "0002", "0001"}) {
        auto sample = nlohmann::json::parse(
            test::readFile(cap / "run/nicd-sim/capture/samples" / (std::string(n) + ".json")));
        if (sample["files"].contains(rel)) {
            recorded = sample["files"][rel].get<std::string>();
            break;
        }
    }
    EXPECT_EQ(test::readFile(counter), recorded) << rel;
    EXPECT_NE(test::readFile(counter), at_sample_1) << "the counters moved between samples";

    auto second = test::once(cap);
    ASSERT_LE(second.rc, 2) /* it judged: the exit status is the verdict */ << second.output;
    auto s = states(second.textfile);
    EXPECT_EQ(s["mlx5_0"], "ecn_working") << second.textfile;
    EXPECT_EQ(s["mlx5_1"], "pfc_only");
    EXPECT_EQ(s["mlx5_2"], "pause_storm");
    EXPECT_EQ(s["mlx5_3"], "lossy");
    // congest-pfc-only pauses 15% of the time. The samples hold the pauses of their spacing;
    // nicd shares them over the time between its two reads (the window it reports), which is a
    // little longer here than on the node (nicd's start between them): compared with what the
    // samples hold, not with what the wall clock made of the play (that is not deterministic).
    auto value = [&](const std::string& series) {
        std::smatch m;
        std::regex re(std::regex_replace(series, std::regex(R"([{}])"), R"(\$&)") +
                      R"( ([0-9.e+-]+))");
        EXPECT_TRUE(std::regex_search(second.textfile, m, re)) << series;
        return m.empty() ? -1.0 : std::stod(m[1]);
    };
    const double window = value(R"(nicd_port_congestion_window_seconds{device="mlx5_1",port="1"})");
    const double paused =
        value(R"(nicd_port_paused_ratio{device="mlx5_1",port="1",direction="rx"})");
    EXPECT_GE(window, offsets[2] - 0.1);
    // What the samples say mlx5_1 paused between sample 1 and 3 (its netdev's ethtool
    // rx_prio*_pause_duration, microseconds), over nicd's window: exactly what nicd must report.
    std::string netdev;
    for (const auto& d : sim::devices(src))
        if (d.name == "mlx5_1" && !d.netdevs.empty())
            netdev = d.netdevs.front();
    const std::string stats = "run/nicd-sim/ethtool/" + netdev;
    ASSERT_TRUE(sample1["files"].contains(stats) && sample3["files"].contains(stats)) << stats;
    auto pausedUs = [](const std::string& text) {
        double us = 0;
        for (const auto& [name, v] : sim::parseEthtool(text))
            if (name.starts_with("rx_prio") && name.ends_with("_pause_duration"))
                us += static_cast<double>(v);
        return us;
    };
    const double paused_s = (pausedUs(sample3["files"][stats].get<std::string>()) -
                             pausedUs(sample1["files"][stats].get<std::string>())) /
                            1e6;
    EXPECT_NEAR(paused, paused_s / window, 1e-6) << "window " << window << " s";
    // (Whether the samples' stamps agree with the counters is CaptureWedgedDevice's
    // SampleTimesAreThoseOfTheirReads: here, each file is read at some point of a sample's reads,
    // which take up to seconds on a loaded machine, so a bound would not be deterministic.)
}
