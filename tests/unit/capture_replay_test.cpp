// Playing a capture's samples (the simulator's side of `nicd-sim run` on a capture): in order,
// at their recorded spacing, the last one held, from the start again when run once more (FIFOs
// of sample 1 too); and only the counter, ethtool and FEC files of the node's devices, never
// through a symlink of the capture, nor waiting on a FIFO where a file should be (a capture may
// come from anywhere).
#include "capture/capture_sources.hpp"
#include "capture_replay.hpp"
#include "files.hpp"
#include "node_state.hpp"
#include "support/sim_tree.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <future>

#include <gtest/gtest.h>

using namespace nicd::sim;
using nicd::test::readFile;
using namespace std::chrono_literals;

namespace {

constexpr const char* kIbDir = "sys/devices/pci0000:00/0000:1a:00.0/infiniband/mlx5_0";
const std::string kCounter = std::string(kIbDir) + "/ports/1/counters/port_xmit_data";
const std::string kStalled = std::string(kIbDir) + "/ports/1/counters/port_rcv_data";

class CaptureReplay : public nicd::test::SimDirTest {
protected:
    // A capture of one device with three samples 100 ms apart; port_rcv_data does not answer in
    // sample 1 (a FIFO), and does from sample 2.
    void SetUp() override
    {
        SimDirTest::SetUp();
        NodeState st;
        st.devices["mlx5_0"].name = "mlx5_0";
        st.devices["mlx5_0"].ib_dir = kIbDir;
        st.save(dir_);
        fs::create_directories(dir_ / kIbDir / "ports/1/counters");
        fs::create_directories(dir_ / "run/nicd-sim/capture/samples");
        writeText(dir_, dir_ / "run/nicd-sim/capture/manifest.json", "{}\n");
        for (int k = 1; k <= 3; ++k) {
            CaptureSample s{0.1 * (k - 1), {{kCounter, std::to_string(100 * k) + "\n"}}, {}};
            if (k == 1)
                s.fifos.insert(kStalled);
            else
                s.files[kStalled] = "7\n";
            writeText(dir_, dir_ / samplePath(k), formatSample(s));
        }
        writeText(dir_, dir_ / kCounter, "100\n");
        EXPECT_EQ(::mkfifo((dir_ / kStalled).c_str(), 0444), 0);
    }
    std::string counter() const { return readFile(dir_ / kCounter); }
    bool stalled() const { return fs::is_fifo(fs::symlink_status(dir_ / kStalled)); }
    std::atomic<bool> stop_{false};
};

} // namespace

TEST_F(CaptureReplay, SamplesRoundTripAndMayNameOnlyPathsInsideTheNode)
{
    CaptureSample s{
        1.5, {{"sys/a", "1\n"}, {"run/nicd-sim/ethtool/x", "NIC statistics:\n"}}, {"sys/b"}};
    auto back = parseSample(formatSample(s), "s");
    EXPECT_EQ(back.offset_s, 1.5);
    EXPECT_EQ(back.files, s.files);
    EXPECT_EQ(back.fifos, s.fifos);
    for (const char* bad : {"../../etc/passwd", "/etc/passwd", "sys/./a", "sys//a", "sys/.."})
        EXPECT_THROW(
            parseSample(std::string(R"({"offset_s": 0, "files": {")") + bad + R"(": "x"}})", "s"),
            SimError)
            << bad;
    EXPECT_THROW(parseSample("not json", "s"), SimError);
}

TEST_F(CaptureReplay, OnlyTheDevicesCounterAndToolFilesMayBeWritten)
{
    SamplePaths paths(NodeState::load(dir_));
    EXPECT_TRUE(paths.allowed(kCounter));
    EXPECT_TRUE(paths.allowed(std::string(kIbDir) + "/ports/2/hw_counters/out_of_buffer"));
    EXPECT_TRUE(paths.allowed("run/nicd-sim/ethtool/ens1f0np0"));
    EXPECT_TRUE(paths.allowed("run/nicd-sim/ethtool-fec/ens1f0np0"));
    EXPECT_FALSE(paths.allowed(std::string(kIbDir) + "/fw_ver"));
    EXPECT_FALSE(paths.allowed(std::string(kIbDir) + "/ports/x/counters/a"));
    EXPECT_FALSE(paths.allowed("sys/x/ports/1/counters/a")) << "not a device of the state";
    EXPECT_FALSE(paths.allowed("sys/x/.bashrc"));
    EXPECT_FALSE(paths.allowed("run/nicd-sim/state.json"));
    EXPECT_FALSE(paths.allowed("run/nicd-sim/ethtool/a/b"));
}

TEST_F(CaptureReplay, PlaysInOrderAtTheRecordedSpacingAndHoldsTheLast)
{
    EXPECT_TRUE(isCapture(dir_));
    EXPECT_EQ(sampleCount(dir_), 3U);
    auto start = std::chrono::steady_clock::now();
    EXPECT_EQ(playSamples(dir_, std::nullopt, 1, stop_), 1U);
    EXPECT_EQ(counter(), "200\n");
    EXPECT_FALSE(stalled()) << "it answers from sample 2";
    EXPECT_EQ(playSamples(dir_, std::nullopt, 0, stop_), 1U);
    EXPECT_EQ(counter(), "300\n") << "the last sample stays";
    EXPECT_GE(std::chrono::steady_clock::now() - start, 200ms) << "100 ms apart, as recorded";
    // At the end, a new run starts over from sample 1, FIFO included.
    EXPECT_EQ(playSamples(dir_, 10, 1, stop_), 1U);
    EXPECT_EQ(counter(), "100\n");
    EXPECT_TRUE(stalled()) << "sample 1's FIFO is back";
}

TEST_F(CaptureReplay, ASampleNeverWritesThroughTheCapturesSymlinks)
{
    // A capture from elsewhere whose counters/ is a link out of it: the sample is not written.
    const auto outside = dir_.parent_path() / (dir_.filename().string() + "-outside");
    fs::create_directories(outside);
    fs::remove_all(dir_ / kIbDir / "ports/1/counters");
    fs::create_directory_symlink(outside, dir_ / kIbDir / "ports/1/counters");
    EXPECT_THROW(playSamples(dir_, 10, 1, stop_), SimError);
    EXPECT_TRUE(fs::is_empty(outside)) << "nothing written outside the capture";
    fs::remove_all(outside);
}

TEST_F(CaptureReplay, ASampleNamingAnotherFileIsRefused)
{
    writeText(dir_, dir_ / samplePath(2),
              formatSample({0.1, {{std::string(kIbDir) + "/fw_ver", "1\n"}}, {}}));
    EXPECT_THROW(playSamples(dir_, 10, 1, stop_), SimError);
    EXPECT_FALSE(fs::exists(dir_ / kIbDir / "fw_ver"));
}

TEST_F(CaptureReplay, AStateOrSampleFileThatIsAFifoFailsAtOnce)
{
    // A capture from elsewhere whose files nicd-sim reads are FIFOs: refused, never waited on.
    for (const auto& rel : {std::string("run/nicd-sim/state.json"), samplePath(2)}) {
        const auto file = dir_ / rel;
        const auto kept = readFile(file);
        fs::remove(file);
        ASSERT_EQ(::mkfifo(file.c_str(), 0644), 0);
        auto done = std::async(std::launch::async, [this] {
            try {
                playSamples(dir_, 10, 1, stop_);
                return std::string("played");
            } catch (const SimError& e) {
                return std::string(e.what());
            }
        });
        if (done.wait_for(20s) != std::future_status::ready) {
            ADD_FAILURE() << "waited on " << rel;
            ::close(::open(file.c_str(), O_RDWR | O_NONBLOCK | O_CLOEXEC)); // lets it through
        }
        EXPECT_NE(done.get().find("FIFO"), std::string::npos) << rel;
        EXPECT_EQ(counter(), "100\n") << "nothing played";
        fs::remove(file);
        writeText(dir_, file, kept);
    }
}

TEST_F(CaptureReplay, ANodeThatIsNoCaptureIsNotPlayed)
{
    fs::remove(dir_ / "run/nicd-sim/capture/manifest.json");
    EXPECT_FALSE(isCapture(dir_));
}

TEST_F(CaptureReplay, LaterSamplesHoldOnlyWhatChanged)
{
    CaptureSample first{0, {{"a", "1\n"}, {"b", "7\n"}, {"c", "0\n"}}, {"f"}};
    CaptureSample second{
        1, {{"a", "2\n"}, {"b", "7\n"}, {"c", "0\n"}, {"d", "5\n"}, {"f", "1\n"}}, {"c2"}};
    auto delta = capture::changedSince(first, second);
    EXPECT_EQ(delta.offset_s, 1);
    EXPECT_EQ(delta.files,
              (std::map<std::string, std::string>{{"a", "2\n"}, {"d", "5\n"}, {"f", "1\n"}}))
        << "a FIFO that answers is a change";
    EXPECT_EQ(delta.fifos, std::set<std::string>{"c2"});
}
