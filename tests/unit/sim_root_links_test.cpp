// The SDK's readers and writers of nicd-sim's files under a --root tree (a capture, not root's
// own): a link in a DCB file's place, in its predictable temporary's place, or in an ethtool
// capture's place is refused, never followed, a FIFO in an ethtool capture's place does not block
// (one in a DCB file's place is a driver not answering yet), and an ethtool capture
// past its size limit is an error naming the file rather than an unbounded buffer.
#include "support/temp_dir.hpp"

#include <nicd/plugin/sdk/dcb_sim_backend.h>
#include <nicd/plugin/sdk/netdev_stats.h>
#include <nicd/plugin/sdk/small_file.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>
#include <thread>

#include <gtest/gtest.h>

namespace fs = std::filesystem;
namespace sdk = nicd::plugin::sdk;
namespace pv1 = nicd::plugin::v1;

namespace {

constexpr const char* kDcbText = "pfc_cap=8\npfc_en=0\nmbc=0\ndelay=0\n";

class SimRootLinks : public nicd::test::TempDirTest {
protected:
    SimRootLinks() : TempDirTest("sim-root-links") {}

    void SetUp() override
    {
        TempDirTest::SetUp();
        dcb_dir_ = dir_ / "run/nicd-sim/dcb";
        ethtool_dir_ = dir_ / "run/nicd-sim/ethtool";
        secret_ = dir_ / "secret";
        fs::create_directories(dcb_dir_);
        fs::create_directories(ethtool_dir_);
        std::ofstream(secret_) << kDcbText; // parses as DCB state if it were followed
    }

    std::string text(const fs::path& f)
    {
        std::string out;
        EXPECT_TRUE(sdk::readSmallFile(f, out));
        return out;
    }

    fs::path dcb_dir_;
    fs::path ethtool_dir_;
    fs::path secret_;
};

} // namespace

TEST_F(SimRootLinks, ALinkInTheDcbFilesPlaceIsRefusedNotFollowed)
{
    fs::create_symlink(secret_, dcb_dir_ / "eth0");
    sdk::SimDcb dcb(dir_);
    sdk::dcb::DcbState st;
    auto s = dcb.get("eth0", st);
    EXPECT_FALSE(s);
    EXPECT_EQ(s.code, pv1::Errc::Io);
    EXPECT_EQ(s.sys_errno, ELOOP) << s.message;

    // A FIFO in its place is the twin of a driver that has not answered yet (what the
    // provisioning tests wedge a DCB request with): read once someone writes it.
    ASSERT_EQ(::mkfifo((dcb_dir_ / "eth1").c_str(), 0600), 0);
    std::thread answer(
        [&] { std::ofstream(dcb_dir_ / "eth1") << "pfc_cap=8\npfc_en=8\nmbc=0\ndelay=0\n"; });
    s = dcb.get("eth1", st);
    answer.join();
    EXPECT_TRUE(s) << s.message;
    ASSERT_TRUE(st.pfc);
    EXPECT_EQ(st.pfc->enabled, 0x08);
}

TEST_F(SimRootLinks, ALinkInTheDcbTemporarysPlaceIsRefusedNotFollowed)
{
    std::ofstream(dcb_dir_ / "eth0") << kDcbText;
    fs::create_symlink(secret_, dcb_dir_ / (".eth0.tmp." + std::to_string(::getpid())));
    sdk::SimDcb dcb(dir_);
    sdk::dcb::Pfc pfc;
    pfc.enabled = 0x08;
    auto s = dcb.set("eth0", pfc, {});
    EXPECT_FALSE(s);
    EXPECT_EQ(s.sys_errno, EEXIST) << s.message;
    EXPECT_EQ(text(secret_), kDcbText); // not truncated through the link
    EXPECT_EQ(text(dcb_dir_ / "eth0"), kDcbText);
}

TEST_F(SimRootLinks, ALinkInTheEthtoolCapturesPlaceIsRefusedNotFollowed)
{
    fs::create_symlink(secret_, ethtool_dir_ / "eth0");
    sdk::SimStatsFile file((ethtool_dir_ / "eth0").string());
    std::string buf;
    std::string_view view;
    auto s = file.read(buf, view);
    EXPECT_FALSE(s);
    EXPECT_EQ(s.code, pv1::Errc::Io);
    EXPECT_EQ(s.sys_errno, ELOOP) << s.message;

    ASSERT_EQ(::mkfifo((ethtool_dir_ / "eth1").c_str(), 0600), 0);
    sdk::SimStatsFile fifo((ethtool_dir_ / "eth1").string());
    s = fifo.read(buf, view);
    EXPECT_FALSE(s);
    EXPECT_NE(s.message.find("run/nicd-sim/ethtool/eth1"), std::string::npos) << s.message;
}

TEST_F(SimRootLinks, AnEthtoolCapturePastItsLimitIsAnError)
{
    const fs::path big = ethtool_dir_ / "eth0";
    std::ofstream(big) << std::string(4 * 1024 * 1024 + 1, ' ');
    sdk::SimStatsFile file(big.string());
    std::string buf;
    std::string_view view;
    auto s = file.read(buf, view);
    EXPECT_FALSE(s);
    EXPECT_EQ(s.code, pv1::Errc::Io);
    EXPECT_NE(s.message.find("run/nicd-sim/ethtool/eth0"), std::string::npos) << s.message;
    EXPECT_LE(buf.size(), 4U * 1024 * 1024 + 1);

    // A file of exactly the limit is still read.
    fs::resize_file(big, 4 * 1024 * 1024);
    sdk::SimStatsFile again(big.string());
    s = again.read(buf, view);
    ASSERT_TRUE(s) << s.message;
    EXPECT_EQ(view.size(), 4U * 1024 * 1024);
}
