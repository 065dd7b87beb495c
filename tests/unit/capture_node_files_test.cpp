// Reading a node for a capture never hangs: a FIFO (a stalled simulated device) is seen without
// being opened for a blocking read, and a directory whose reads stop answering (wedged firmware)
// gives up at the deadline with what it had.
#include "capture/node_files.hpp"
#include "support/temp_dir.hpp"

#include <sys/stat.h>

#include <chrono>
#include <fstream>
#include <future>

#include <gtest/gtest.h>

using namespace nicd::sim::capture;
using namespace std::chrono_literals;

class CaptureNodeFiles : public nicd::test::TempDirTest {};

TEST_F(CaptureNodeFiles, AFifoIsReportedWithoutWaitingForAWriter)
{
    auto fifo = dir_ / "port_xmit_data";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0444), 0);
    auto start = std::chrono::steady_clock::now();
    auto r = readNodeFile(fifo);
    EXPECT_EQ(r.status, NodeRead::Status::Fifo);
    EXPECT_LT(std::chrono::steady_clock::now() - start, 1s);
}

TEST_F(CaptureNodeFiles, FilesAreReadWholeAndMissingOnesSaySo)
{
    std::ofstream(dir_ / "fw_ver") << "28.41.1000\n";
    EXPECT_EQ(readNodeFile(dir_ / "fw_ver").data, "28.41.1000\n");
    EXPECT_EQ(readNodeFile(dir_ / "absent").status, NodeRead::Status::Missing);
    std::ofstream(dir_ / "big") << std::string(5000, 'x');
    EXPECT_EQ(readNodeFile(dir_ / "big").data.size(), 5000U) << "more than one read";
    EXPECT_EQ(readNodeFile(dir_ / "big", 100).status, NodeRead::Status::Error);
}

TEST_F(CaptureNodeFiles, ReadsThatStopAnsweringGiveUpAtTheDeadline)
{
    std::promise<void> release;
    auto released = release.get_future().share();
    auto reader = [released](const fs::path& f) {
        if (f.filename() == "b")
            released.wait(); // a firmware command that does not come back
        NodeRead r;
        r.status = NodeRead::Status::Ok;
        r.data = f.filename().string();
        return r;
    };
    auto start = std::chrono::steady_clock::now();
    auto results = readWithDeadline({dir_ / "a", dir_ / "b", dir_ / "c"}, 200ms, reader);
    auto took = std::chrono::steady_clock::now() - start;
    release.set_value(); // let the worker finish before the test ends
    ASSERT_EQ(results.size(), 3U);
    EXPECT_EQ(results[0].status, NodeRead::Status::Ok);
    EXPECT_EQ(results[0].data, "a");
    EXPECT_EQ(results[1].status, NodeRead::Status::TimedOut);
    EXPECT_EQ(results[2].status, NodeRead::Status::TimedOut);
    EXPECT_GE(took, 200ms);
    EXPECT_LT(took, 2s);
}
