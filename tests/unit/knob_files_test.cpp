// nicd's knob writer on hand-built trees: a knob is reached through its device's class link and
// written; a link or file the kernel would not have put there (a symlink on the way or at the
// knob, a class link out of sys/devices, a FIFO) is refused and nothing is written through it;
// configfs groups are made, and on a simulated root filled in as the kernel would. The writer
// process serves the same, and says so once it is gone.
#include "privilege/knob_files.hpp"
#include "privilege/knob_writer.hpp"
#include "support/temp_dir.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <cerrno>
#include <fstream>

#include <gtest/gtest.h>

using namespace nicd;
using namespace nicd::privilege;
namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path& p)
{
    std::ifstream in(p);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

class KnobFiles : public test::TempDirTest {
protected:
    void SetUp() override
    {
        TempDirTest::SetUp();
        dev_ = dir_ / "sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0";
        net_ = dev_ / "net/ens1f0np0";
        fs::create_directories(net_ / "ecn/roce_np/enable");
        fs::create_directories(dir_ / "sys/class/net");
        fs::create_symlink("../../devices/pci0000:00/0000:00:01.0/0000:01:00.0/net/ens1f0np0",
                           dir_ / "sys/class/net/ens1f0np0");
        std::ofstream(net_ / "ecn/roce_np/enable/3") << "0\n";
        std::ofstream(dev_ / "remove") << "untouched\n";
        auto ib = dev_ / "infiniband/mlx5_0";
        fs::create_directories(ib / "ports/1");
        fs::create_directories(ib / "ports/2");
        fs::create_directories(dir_ / "sys/class/infiniband");
        fs::create_symlink("../../devices/pci0000:00/0000:00:01.0/0000:01:00.0/infiniband/mlx5_0",
                           dir_ / "sys/class/infiniband/mlx5_0");
        fs::create_directories(dir_ / "sys/kernel/config/rdma_cm");
        root_fd_ = ::open(dir_.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
        ASSERT_GE(root_fd_, 0);
    }
    void TearDown() override
    {
        ::close(root_fd_);
        TempDirTest::TearDown();
    }
    KnobReply apply(KnobOp op, const std::string& rel, const std::string& value,
                    bool simulated = true)
    {
        return applyKnobRequest({root_fd_, dir_, simulated}, {op, rel, value});
    }
    KnobReply enable3() { return apply(KnobOp::Write, kEnable3, "1\n"); }

    static constexpr const char* kEnable3 = "sys/class/net/ens1f0np0/ecn/roce_np/enable/3";
    fs::path dev_, net_;
    int root_fd_ = -1;
};

} // namespace

TEST_F(KnobFiles, WritesAKnobThroughItsClassLink)
{
    auto r = enable3();
    EXPECT_EQ(r.err, 0) << r.message;
    EXPECT_EQ(slurp(net_ / "ecn/roce_np/enable/3"), "1\n");
    // The whole value replaces what was there, in one write.
    std::ofstream(net_ / "ecn/roce_np/cnp_dscp") << "48\n";
    r = apply(KnobOp::Write, "sys/class/net/ens1f0np0/ecn/roce_np/cnp_dscp", "7\n");
    EXPECT_EQ(r.err, 0) << r.message;
    EXPECT_EQ(slurp(net_ / "ecn/roce_np/cnp_dscp"), "7\n");
}

TEST_F(KnobFiles, RefusesWhatIsNoKnobOrNoValueOfIt)
{
    auto r = apply(KnobOp::Write, "sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/remove", "1\n");
    EXPECT_EQ(r.err, EPERM);
    EXPECT_EQ(r.message,
              (dev_ / "remove").string() + ": not a knob nicd's writer may change (refused)");
    r = apply(KnobOp::Write, kEnable3, "2\n");
    EXPECT_EQ(r.err, EINVAL);
    EXPECT_NE(r.message.find("the value must be 0 or 1"), std::string::npos) << r.message;
    EXPECT_EQ(slurp(dev_ / "remove"), "untouched\n");
    EXPECT_EQ(slurp(net_ / "ecn/roce_np/enable/3"), "0\n");
}

TEST_F(KnobFiles, FollowsNoLinkItDoesNotExpect)
{
    // The knob itself is a link to the PCI function's remove.
    fs::remove(net_ / "ecn/roce_np/enable/3");
    fs::create_symlink("../../../../../remove", net_ / "ecn/roce_np/enable/3");
    auto r = enable3();
    EXPECT_EQ(r.err, EPERM) << r.message;
    EXPECT_NE(r.message.find("not a regular file (refused)"), std::string::npos) << r.message;

    // A directory on the way is a link.
    fs::remove_all(net_ / "ecn");
    fs::create_directories(dev_ / "elsewhere/roce_np/enable");
    std::ofstream(dev_ / "elsewhere/roce_np/enable/3") << "0\n";
    fs::create_symlink("../../elsewhere", net_ / "ecn");
    r = enable3();
    EXPECT_EQ(r.err, ENOTDIR) << r.message;
    EXPECT_EQ(slurp(dev_ / "elsewhere/roce_np/enable/3"), "0\n");

    // The class link leads out of sys/devices, or is no link at all.
    for (const char* link : {"../../../outside/net/ens1f0np0", "/tmp/net/ens1f0np0"}) {
        fs::remove(dir_ / "sys/class/net/ens1f0np0");
        fs::create_symlink(link, dir_ / "sys/class/net/ens1f0np0");
        r = enable3();
        EXPECT_EQ(r.err, EPERM) << link;
        EXPECT_NE(r.message.find(std::string("links to ") + link +
                                 ", not to a device directory under sys/devices (refused)"),
                  std::string::npos)
            << r.message;
    }
    fs::remove(dir_ / "sys/class/net/ens1f0np0");
    fs::create_directories(dir_ / "sys/class/net/ens1f0np0/ecn/roce_np/enable");
    r = enable3();
    EXPECT_EQ(r.err, EPERM);
    EXPECT_NE(r.message.find("not a link to a device (refused)"), std::string::npos) << r.message;
    // sys itself is a link (to another tree).
    fs::rename(dir_ / "sys", dir_ / "real-sys");
    fs::create_symlink("real-sys", dir_ / "sys");
    r = enable3();
    EXPECT_EQ(r.err, ENOTDIR) << r.message;
}

TEST_F(KnobFiles, AFifoOrADirectoryIsNoKnob)
{
    fs::remove(net_ / "ecn/roce_np/enable/3");
    ASSERT_EQ(::mkfifo((net_ / "ecn/roce_np/enable/3").c_str(), 0600), 0);
    auto r = enable3(); // refused at once, never waiting for a reader
    EXPECT_EQ(r.err, EPERM);
    EXPECT_NE(r.message.find("not a regular file (refused)"), std::string::npos) << r.message;
    fs::remove(net_ / "ecn/roce_np/enable/3");
    fs::create_directory(net_ / "ecn/roce_np/enable/3");
    EXPECT_EQ(enable3().err, EPERM);
    fs::remove(net_ / "ecn/roce_np/enable/3");
    r = enable3();
    EXPECT_EQ(r.err, ENOENT);
    EXPECT_EQ(r.message, (dir_ / kEnable3).string() + ": No such file or directory");
}

TEST_F(KnobFiles, RdmaCmGroupsAsTheKernelMakesThem)
{
    auto r = apply(KnobOp::MakeGroup, "sys/kernel/config/rdma_cm/mlx5_0", "");
    EXPECT_EQ(r.err, 0) << r.message;
    for (const char* port : {"1", "2"})
        EXPECT_EQ(
            slurp(dir_ / "sys/kernel/config/rdma_cm/mlx5_0/ports" / port / "default_roce_tos"),
            "0\n");
    r = apply(KnobOp::Write, "sys/kernel/config/rdma_cm/mlx5_0/ports/2/default_roce_tos", "106\n");
    EXPECT_EQ(r.err, 0) << r.message;
    // Made again (EEXIST): nothing changes.
    EXPECT_EQ(apply(KnobOp::MakeGroup, "sys/kernel/config/rdma_cm/mlx5_0", "").err, 0);
    EXPECT_EQ(slurp(dir_ / "sys/kernel/config/rdma_cm/mlx5_0/ports/2/default_roce_tos"), "106\n");
    // A device the node does not have: ENODEV, as the kernel answers.
    r = apply(KnobOp::MakeGroup, "sys/kernel/config/rdma_cm/mlx5_9", "");
    EXPECT_EQ(r.err, ENODEV);
    EXPECT_FALSE(fs::exists(dir_ / "sys/kernel/config/rdma_cm/mlx5_9"));
    // Outside rdma_cm nothing is made.
    fs::create_directories(dir_ / "sys/kernel/config/nvmet/subsystems");
    r = apply(KnobOp::MakeGroup, "sys/kernel/config/nvmet/subsystems/x", "");
    EXPECT_EQ(r.err, EPERM);
    EXPECT_FALSE(fs::exists(dir_ / "sys/kernel/config/nvmet/subsystems/x"));
    // On a real root the kernel fills the group in: only the directory is made.
    r = apply(KnobOp::MakeGroup, "sys/kernel/config/rdma_cm/mlx5_1", "", false);
    EXPECT_EQ(r.err, 0) << r.message;
    EXPECT_TRUE(fs::is_directory(dir_ / "sys/kernel/config/rdma_cm/mlx5_1"));
    EXPECT_FALSE(fs::exists(dir_ / "sys/kernel/config/rdma_cm/mlx5_1/ports"));
}

TEST_F(KnobFiles, TheWriterProcessServesTheSameAndSaysWhenItIsGone)
{
    auto started = KnobWriter::start(dir_, true);
    ASSERT_TRUE(started) << started.error().message;
    auto writer = std::move(*started);
    auto r = writer->submit({KnobOp::Write, kEnable3, "1\n"});
    EXPECT_EQ(r.err, 0) << r.message;
    EXPECT_EQ(slurp(net_ / "ecn/roce_np/enable/3"), "1\n");
    r = writer->submit(
        {KnobOp::Write, "sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/remove", "1\n"});
    EXPECT_EQ(r.err, EPERM);
    r = writer->submit({KnobOp::Write, "", "1\n"}); // bytes the writer cannot decode
    EXPECT_EQ(r.err, EPROTO);
    EXPECT_EQ(r.message, "nicd's knob writer refused a request without a path");
    EXPECT_EQ(slurp(dev_ / "remove"), "untouched\n");

    ASSERT_EQ(::kill(writer->pid(), SIGKILL), 0);
    r = writer->submit({KnobOp::Write, kEnable3, "0\n"});
    EXPECT_EQ(r.err, EPIPE);
    EXPECT_NE(r.message.find("is gone: no QoS knob can be changed until nicd restarts"),
              std::string::npos)
        << r.message;
    EXPECT_EQ(slurp(net_ / "ecn/roce_np/enable/3"), "1\n");
    EXPECT_EQ(writer->submit({KnobOp::Write, kEnable3, "0\n"}).err, EPIPE);
}

TEST_F(KnobFiles, TheWriterEndsWithTheDaemonsSocket)
{
    auto started = KnobWriter::start(dir_, true);
    ASSERT_TRUE(started) << started.error().message;
    auto writer = std::move(*started);
    const pid_t pid = writer->pid();
    writer.reset(); // closes the socket and reaps the writer: no process is left
    EXPECT_EQ(::kill(pid, 0), -1);
    EXPECT_EQ(errno, ESRCH);
}
