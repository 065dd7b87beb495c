// Reading a node for a capture never hangs, never opens what is not a file and never reads
// through a symlink: a FIFO (a stalled simulated device) is seen without being opened, a device
// node is refused before it is opened, and a symlink, at the file or on the way to it, is
// reported (a link with its target) instead of being followed, whatever the node's root is.
#include "capture/node_files.hpp"
#include "support/temp_dir.hpp"

#include <sys/stat.h>

#include <chrono>
#include <fstream>

#include <gtest/gtest.h>

using namespace nicd::sim::capture;
using namespace std::chrono_literals;

namespace {

class CaptureNodeFiles : public nicd::test::TempDirTest {
protected:
    void SetUp() override
    {
        TempDirTest::SetUp();
        node_ = std::make_unique<NodeRoot>(dir_);
    }
    NodeRead read(const std::string& rel, size_t limit = kMaxNodeFile) const
    {
        return node_->read(dir_ / rel, limit);
    }
    std::unique_ptr<NodeRoot> node_;
};

} // namespace

TEST_F(CaptureNodeFiles, AFifoIsReportedWithoutWaitingForAWriter)
{
    ASSERT_EQ(::mkfifo((dir_ / "port_xmit_data").c_str(), 0444), 0);
    auto start = std::chrono::steady_clock::now();
    EXPECT_EQ(read("port_xmit_data").status, NodeRead::Status::Fifo);
    EXPECT_LT(std::chrono::steady_clock::now() - start, 1s);
}

TEST_F(CaptureNodeFiles, FilesAreReadWholeAndMissingOnesSaySo)
{
    std::ofstream(dir_ / "fw_ver") << "28.41.1000\n";
    EXPECT_EQ(read("fw_ver").data, "28.41.1000\n");
    EXPECT_EQ(read("absent").status, NodeRead::Status::Missing);
    std::ofstream(dir_ / "big") << std::string(5000, 'x');
    EXPECT_EQ(read("big").data.size(), 5000U) << "more than one read";
    EXPECT_EQ(read("big", 100).status, NodeRead::Status::Error);
}

TEST_F(CaptureNodeFiles, ASymlinkIsReportedWithItsTargetNeverReadThrough)
{
    const auto secret = dir_.parent_path() / (dir_.filename().string() + "-secret");
    std::ofstream(secret) << "root:$6$hash\n";
    fs::create_symlink(secret, dir_ / "fw_ver");
    auto r = read("fw_ver");
    EXPECT_EQ(r.status, NodeRead::Status::Symlink);
    EXPECT_EQ(r.data, secret.string());
    EXPECT_EQ(node_->link(dir_ / "fw_ver"), secret.string());
    // On the way to the file: not followed either (even one that stays inside).
    fs::create_directories(dir_ / "real");
    std::ofstream(dir_ / "real/state") << "4: ACTIVE\n";
    fs::create_directory_symlink("real", dir_ / "via");
    EXPECT_EQ(read("via/state").status, NodeRead::Status::Error);
    EXPECT_EQ(read("via/state").err, ELOOP);
    EXPECT_TRUE(node_->list(dir_ / "via").empty()) << "nor listed through";
    EXPECT_EQ(node_->list(dir_ / "real"), std::vector<std::string>{"state"});
    fs::remove(secret);
}

TEST_F(CaptureNodeFiles, TheRealRootIsNoExceptionToTheRule)
{
    // With the source "/" every path is inside it: links are still not followed.
    NodeRoot slash("/");
    std::ofstream(dir_ / "fw_ver") << "1\n";
    fs::create_symlink(dir_ / "fw_ver", dir_ / "link");
    EXPECT_EQ(slash.read(dir_ / "fw_ver").data, "1\n");
    EXPECT_EQ(slash.read(dir_ / "link").status, NodeRead::Status::Symlink);
}

TEST_F(CaptureNodeFiles, DeviceNodesAndDirectoriesAreNeverOpened)
{
    // A tree's attribute that is a device node (/dev/watchdog would arm when opened): what it is
    // is asked first. /dev/null stands for it (opening it would succeed).
    NodeRoot slash("/");
    auto r = slash.read("/dev/null");
    EXPECT_EQ(r.status, NodeRead::Status::Error);
    EXPECT_EQ(r.error, "not a regular file");
    EXPECT_EQ(read("").status, NodeRead::Status::Error);
}

TEST_F(CaptureNodeFiles, ReadErrorsKeepTheirErrno)
{
    // A name under a file: ENOTDIR is "missing" (nothing there), as sysfs says of a gone device.
    std::ofstream(dir_ / "file") << "1\n";
    EXPECT_EQ(read("file/below").status, NodeRead::Status::Missing);
    fs::create_symlink("loop", dir_ / "loop");
    auto r = read("loop/x");
    EXPECT_EQ(r.status, NodeRead::Status::Error);
    EXPECT_EQ(r.err, ELOOP);
}
