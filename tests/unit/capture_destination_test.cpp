// Where a capture goes and what it reads of the source's own files, when others are at work: a
// DIR that someone fills while the samples are read is left as they made it (the capture goes
// beside it, saying so), and a source whose simulator state file is a FIFO (a tree from
// elsewhere) is captured as a real node's files at once, instead of waiting forever on it.
#include "capture/capture.hpp"
#include "sim.hpp"
#include "support/sim_tree.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <future>

#include <gtest/gtest.h>

using namespace nicd;
using namespace std::chrono_literals;
namespace cap = nicd::sim::capture;
namespace fs = std::filesystem;

namespace {

class CaptureDestination : public test::SimDirTest {
protected:
    void SetUp() override
    {
        SimDirTest::SetUp();
        src_ = dir_ / "src";
        sim::create(src_, {});
        options_.source = src_;
        options_.devices = {"mlx5_0"};
    }

    // capture(DIR) on a thread; when it has not ended in 30 s (blocked on `fifo`), the FIFO is
    // given a writer that says nothing, so that the test ends, and fails.
    cap::CaptureResult captureWithin(const fs::path& fifo)
    {
        auto done =
            std::async(std::launch::async, [this] { return cap::capture(dir_ / "cap", options_); });
        if (done.wait_for(30s) != std::future_status::ready) {
            int fd = ::open(fifo.c_str(), O_RDWR | O_NONBLOCK | O_CLOEXEC);
            ::close(fd);
            ADD_FAILURE() << "the capture waited on " << fifo;
        }
        return done.get();
    }

    fs::path src_;
    cap::CaptureOptions options_;
};

} // namespace

TEST_F(CaptureDestination, ADirFilledMeanwhileIsLeftAloneAndTheCaptureGoesBesideIt)
{
    // DIR is checked (absent) before anything is read; while the samples are read, someone
    // makes it and puts a file of theirs in it.
    const auto dir = dir_ / "cap";
    auto made = std::make_shared<std::atomic<bool>>(false);
    options_.samples = 2;
    options_.interval_ms = 10;
    auto node = std::make_shared<const cap::NodeRoot>(fs::canonical(options_.source));
    options_.read_file = [made, dir, node](const fs::path& p) {
        if (p.string().find("/counters/") != std::string::npos && !made->exchange(true)) {
            fs::create_directories(dir);
            std::ofstream(dir / "theirs") << "mine\n";
        }
        return node->read(p);
    };
    auto result = cap::capture(dir, options_);
    EXPECT_TRUE(*made);
    EXPECT_EQ(test::readFile(dir / "theirs"), "mine\n");
    EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1)
        << "nothing of the capture in their directory";
    EXPECT_NE(result.dir, dir);
    EXPECT_EQ(result.dir.parent_path(), dir.parent_path()) << "beside it: " << result.dir;
    EXPECT_NE(result.moved.find("no longer empty"), std::string::npos) << result.moved;
    EXPECT_TRUE(fs::exists(result.dir / cap::kManifestFile));
    struct stat st {};
    ASSERT_EQ(::stat(result.dir.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0700U);
}

TEST_F(CaptureDestination, AStateFileThatIsAFifoDoesNotHoldTheCaptureUp)
{
    const auto state = src_ / "run/nicd-sim/state.json";
    fs::remove(state);
    ASSERT_EQ(::mkfifo(state.c_str(), 0644), 0);
    const auto start = std::chrono::steady_clock::now();
    auto result = captureWithin(state);
    EXPECT_LT(std::chrono::steady_clock::now() - start, 20s);
    EXPECT_EQ(result.manifest.kind, cap::NodeKind::RealTree)
        << "no simulated node without a state file to read";
    EXPECT_TRUE(fs::exists(dir_ / "cap/sys/class/infiniband/mlx5_0/fw_ver"));
    EXPECT_TRUE(fs::is_fifo(fs::symlink_status(state))) << "the source is left as it was";
}
