// A wedged NIC (a read that does not come back: a firmware command inside the kernel) does not
// hold a capture up: the device is given up on after --timeout, the capture finishes with the
// rest, the manifest says which device and what it was reading, its unread counters are FIFOs,
// and it is read no more (later samples, its tool outputs). The samples' times are those of their
// reads, not of the walk before them. The reads are the capture's own, with a stand-in reader
// for the wedge (a test cannot make the kernel block).
#include "capture/capture.hpp"
#include "sim.hpp"
#include "support/sim_tree.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <future>
#include <mutex>
#include <thread>

#include <gtest/gtest.h>

using namespace nicd;
using namespace std::chrono_literals;
namespace cap = nicd::sim::capture;
namespace fs = std::filesystem;

namespace {

// What the capture read, and a read that blocks until the test ends.
struct Reads {
    std::mutex m;
    std::vector<std::string> paths;
    std::promise<void> release;
    std::shared_future<void> released = release.get_future().share();

    void add(const std::string& p)
    {
        std::lock_guard lock(m);
        paths.push_back(p);
    }
    size_t count(const std::string& part)
    {
        std::lock_guard lock(m);
        return static_cast<size_t>(std::count_if(paths.begin(), paths.end(), [&](const auto& p) {
            return p.find(part) != std::string::npos;
        }));
    }
};

class CaptureWedgedDevice : public test::SimDirTest {
protected:
    void SetUp() override
    {
        SimDirTest::SetUp();
        src_ = dir_ / "src";
        sim::create(src_, {});
        for (const auto& d : sim::devices(src_))
            netdev_[d.name] = d.netdevs.empty() ? std::string() : d.netdevs.front();
        reads_ = std::make_shared<Reads>();
    }
    void TearDown() override
    {
        reads_->release.set_value(); // the worker left behind comes back, and ends
        SimDirTest::TearDown();
    }
    // Every read recorded; a path containing `wedge` blocks from its `from`-th read on.
    cap::FileReader reader(const std::string& wedge, size_t from = 1)
    {
        return [reads = reads_, wedge, from, node = node()](const fs::path& p) {
            reads->add(p.string());
            if (!wedge.empty() && p.string().find(wedge) != std::string::npos &&
                reads->count(wedge) >= from)
                reads->released.wait();
            return node->read(p);
        };
    }
    // How a capture reads the source's files itself.
    std::shared_ptr<const cap::NodeRoot> node() const
    {
        return std::make_shared<const cap::NodeRoot>(fs::canonical(src_));
    }
    nlohmann::json sample(int k) const
    {
        return nlohmann::json::parse(test::readFile(
            dir_ / "cap" / fmt::format("run/nicd-sim/capture/samples/{:04d}.json", k)));
    }

    fs::path src_;
    std::map<std::string, std::string> netdev_;
    std::shared_ptr<Reads> reads_;
};

} // namespace

TEST_F(CaptureWedgedDevice, AStateThatDoesNotAnswerGivesUpOnItsDeviceOnly)
{
    cap::CaptureOptions o;
    o.source = src_;
    o.samples = 3;
    o.interval_ms = 10;
    o.timeout = 300ms;
    o.read_file = reader("infiniband/mlx5_0/ports/1/state");
    const auto start = std::chrono::steady_clock::now();
    auto result = cap::capture(dir_ / "cap", o);
    EXPECT_LT(std::chrono::steady_clock::now() - start, 30s) << "not a wait per sample";
    const auto& m = result.manifest;
    EXPECT_EQ(m.timed_out, std::vector<std::string>{"mlx5_0"});
    auto noted = std::find_if(m.skipped.begin(), m.skipped.end(),
                              [](const auto& s) { return s.item == "mlx5_0"; });
    ASSERT_NE(noted, m.skipped.end());
    EXPECT_NE(noted->why.find("ports/1/state"), std::string::npos) << noted->why;
    // Asked once, then never again: not its state, counters, or tool outputs in any sample.
    EXPECT_EQ(reads_->count("infiniband/mlx5_0/ports/1/state"), 1U);
    EXPECT_EQ(reads_->count("infiniband/mlx5_0/ports/1/counters/"), 0U);
    EXPECT_EQ(reads_->count("run/nicd-sim/ethtool/" + netdev_["mlx5_0"]), 0U);
    EXPECT_GT(reads_->count("run/nicd-sim/ethtool/" + netdev_["mlx5_1"]), 2U) << "3 samples";
    // In the capture: what it read before, its counters as FIFOs (reads block in the replay).
    const auto ib = dir_ / "cap/sys/class/infiniband";
    EXPECT_TRUE(fs::exists(ib / "mlx5_0/fw_ver"));
    EXPECT_FALSE(fs::exists(ib / "mlx5_0/ports/1/state"));
    EXPECT_TRUE(fs::is_fifo(ib / "mlx5_0/ports/1/counters/port_xmit_data"));
    EXPECT_TRUE(fs::is_regular_file(ib / "mlx5_1/ports/1/counters/port_xmit_data"));
    EXPECT_TRUE(fs::is_regular_file(ib / "mlx5_1/ports/1/state"));
}

TEST_F(CaptureWedgedDevice, AToolReadThatStopsAnsweringInASampleGivesUpThere)
{
    cap::CaptureOptions o;
    o.source = src_;
    o.samples = 3;
    o.interval_ms = 10;
    o.timeout = 300ms;
    const auto stats = "run/nicd-sim/ethtool/" + netdev_["mlx5_1"];
    o.read_file = reader(stats, 2); // answers in sample 1, not in sample 2
    auto result = cap::capture(dir_ / "cap", o);
    EXPECT_EQ(result.manifest.timed_out, std::vector<std::string>{"mlx5_1"});
    EXPECT_EQ(reads_->count(stats), 2U);
    const std::string counters = "infiniband/mlx5_1/ports/1/counters/";
    EXPECT_EQ(reads_->count(counters), 2 * reads_->count("infiniband/mlx5_2/ports/1/counters/") / 3)
        << "its counters read in samples 1 and 2, not 3";
    const auto third = sample(3); // held: a range over a temporary's member would dangle
    for (const auto& [path, value] : third["files"].items())
        EXPECT_EQ(path.find("mlx5_1"), std::string::npos) << path;
}

TEST_F(CaptureWedgedDevice, SampleTimesAreThoseOfTheirReads)
{
    // The walk takes 600 ms (a slow attribute), then two samples 200 ms apart. A counter that
    // counts microseconds says when each sample read it: the recorded times must agree.
    auto clock =
        std::make_shared<std::chrono::steady_clock::time_point>(std::chrono::steady_clock::now());
    cap::CaptureOptions o;
    o.source = src_;
    o.devices = {"mlx5_0", "mlx5_1"};
    o.samples = 2;
    o.interval_ms = 200;
    const std::string tick = "infiniband/mlx5_1/ports/1/counters/port_xmit_data";
    o.read_file = [clock, tick, node = node()](const fs::path& p) {
        if (p.string().find("infiniband/mlx5_0/fw_ver") != std::string::npos)
            std::this_thread::sleep_for(600ms);
        if (p.string().find(tick) == std::string::npos)
            return node->read(p);
        cap::NodeRead r;
        r.status = cap::NodeRead::Status::Ok;
        r.data = std::to_string(std::chrono::duration_cast<std::chrono::microseconds>(
                                    std::chrono::steady_clock::now() - *clock)
                                    .count()) +
                 "\n";
        return r;
    };
    auto result = cap::capture(dir_ / "cap", o);
    const auto& offsets = result.manifest.sample_offsets;
    ASSERT_EQ(offsets.size(), 2U);
    EXPECT_EQ(offsets[0], 0.0);
    const auto rel = fs::relative(fs::canonical(src_ / "sys/class/infiniband/mlx5_1/ports/1/"
                                                       "counters/port_xmit_data"),
                                  src_)
                         .string();
    const double read1 = std::stod(sample(1)["files"][rel].get<std::string>()) / 1e6;
    const double read2 = std::stod(sample(2)["files"][rel].get<std::string>()) / 1e6;
    EXPECT_NEAR(offsets[1] - offsets[0], read2 - read1, 0.25)
        << "sample 1 is stamped when it was read, after the walk's 600 ms";
    EXPECT_GE(offsets[1], 0.15) << "200 ms apart";
}
