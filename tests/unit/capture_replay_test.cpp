// Playing a capture's samples (the simulator's side of `nicd-sim run` on a capture): in order,
// at their recorded spacing, the last one held, from the start again when run once more.
#include "capture/capture_sources.hpp"
#include "capture_replay.hpp"
#include "files.hpp"
#include "node_state.hpp"
#include "support/sim_tree.hpp"

#include <chrono>

#include <gtest/gtest.h>

using namespace nicd::sim;
using nicd::test::readFile;
using namespace std::chrono_literals;

namespace {

class CaptureReplay : public nicd::test::SimDirTest {
protected:
    // A capture of one counter with three samples 100 ms apart.
    void SetUp() override
    {
        SimDirTest::SetUp();
        NodeState().save(dir_);
        fs::create_directories(dir_ / "run/nicd-sim/capture/samples");
        writeText(dir_, dir_ / "run/nicd-sim/capture/manifest.json", "{}\n");
        for (int k = 1; k <= 3; ++k)
            writeText(dir_, dir_ / samplePath(k),
                      formatSample({0.1 * (k - 1), {{"counter", std::to_string(100 * k) + "\n"}}}));
        writeText(dir_, dir_ / "counter", "100\n");
    }
    std::string counter() const { return readFile(dir_ / "counter"); }
    std::atomic<bool> stop_{false};
};

} // namespace

TEST_F(CaptureReplay, SamplesRoundTripAndMayNameOnlyPathsInsideTheNode)
{
    CaptureSample s{1.5, {{"sys/a", "1\n"}, {"run/nicd-sim/ethtool/x", "NIC statistics:\n"}}};
    auto back = parseSample(formatSample(s), "s");
    EXPECT_EQ(back.offset_s, 1.5);
    EXPECT_EQ(back.files, s.files);
    EXPECT_THROW(parseSample(R"({"offset_s": 0, "files": {"../../etc/passwd": "x"}})", "s"),
                 SimError);
    EXPECT_THROW(parseSample("not json", "s"), SimError);
}

TEST_F(CaptureReplay, PlaysInOrderAtTheRecordedSpacingAndHoldsTheLast)
{
    EXPECT_TRUE(isCapture(dir_));
    EXPECT_EQ(sampleCount(dir_), 3U);
    auto start = std::chrono::steady_clock::now();
    EXPECT_EQ(playSamples(dir_, std::nullopt, 1, stop_), 1U);
    EXPECT_EQ(counter(), "200\n");
    EXPECT_EQ(playSamples(dir_, std::nullopt, 0, stop_), 1U);
    EXPECT_EQ(counter(), "300\n") << "the last sample stays";
    EXPECT_GE(std::chrono::steady_clock::now() - start, 200ms) << "100 ms apart, as recorded";
    // At the end, a new run starts over from sample 1.
    EXPECT_EQ(playSamples(dir_, 10, 1, stop_), 1U);
    EXPECT_EQ(counter(), "100\n");
}

TEST_F(CaptureReplay, ANodeThatIsNoCaptureIsNotPlayed)
{
    fs::remove(dir_ / "run/nicd-sim/capture/manifest.json");
    EXPECT_FALSE(isCapture(dir_));
}

TEST_F(CaptureReplay, LaterSamplesHoldOnlyWhatChanged)
{
    CaptureSample first{0, {{"a", "1\n"}, {"b", "7\n"}, {"c", "0\n"}}};
    CaptureSample second{1, {{"a", "2\n"}, {"b", "7\n"}, {"c", "0\n"}, {"d", "5\n"}}};
    auto delta = capture::changedSince(first, second);
    EXPECT_EQ(delta.offset_s, 1);
    EXPECT_EQ(delta.files, (std::map<std::string, std::string>{{"a", "2\n"}, {"d", "5\n"}}));
}
