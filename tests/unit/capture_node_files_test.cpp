// Reading a node for a capture never hangs and never opens what is not a file: a FIFO (a
// stalled simulated device) is seen without being opened, and a device node (a symlink to one
// included) is refused before it is opened.
#include "capture/node_files.hpp"
#include "support/temp_dir.hpp"

#include <sys/stat.h>

#include <chrono>
#include <fstream>

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
    fs::create_symlink("fw_ver", dir_ / "link");
    EXPECT_EQ(readNodeFile(dir_ / "link").data, "28.41.1000\n") << "a symlink is followed";
    EXPECT_EQ(readNodeFile(dir_ / "absent").status, NodeRead::Status::Missing);
    std::ofstream(dir_ / "big") << std::string(5000, 'x');
    EXPECT_EQ(readNodeFile(dir_ / "big").data.size(), 5000U) << "more than one read";
    EXPECT_EQ(readNodeFile(dir_ / "big", 100).status, NodeRead::Status::Error);
}

TEST_F(CaptureNodeFiles, DeviceNodesAndDirectoriesAreNeverOpened)
{
    // A tree's attribute that is a link to a device (/dev/watchdog would arm when opened): what
    // it is is asked first. /dev/null stands for it (opening it would succeed).
    fs::create_symlink("/dev/null", dir_ / "state");
    auto r = readNodeFile(dir_ / "state");
    EXPECT_EQ(r.status, NodeRead::Status::Error);
    EXPECT_EQ(r.error, "not a regular file");
    EXPECT_EQ(readNodeFile(dir_).status, NodeRead::Status::Error);
}

TEST_F(CaptureNodeFiles, ReadErrorsKeepTheirErrno)
{
    // A name under a file: ENOTDIR is "missing" (nothing there), as sysfs says of a gone device.
    std::ofstream(dir_ / "file") << "1\n";
    EXPECT_EQ(readNodeFile(dir_ / "file/below").status, NodeRead::Status::Missing);
    fs::create_symlink("loop", dir_ / "loop");
    auto r = readNodeFile(dir_ / "loop");
    EXPECT_EQ(r.status, NodeRead::Status::Error);
    EXPECT_EQ(r.err, ELOOP);
}
