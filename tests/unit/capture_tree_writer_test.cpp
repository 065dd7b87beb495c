// Writing a capture never lands outside its directory: an entry's path with ".." or a leading
// "/" is refused, and a symlink the capture holds is never followed to write below it; a host
// path from nicd's configuration is read only when it stays inside the source.
#include "capture/host_files.hpp"
#include "capture/sysfs_walk.hpp"
#include "capture/tree_writer.hpp"
#include "sim.hpp"
#include "support/temp_dir.hpp"

#include <sys/stat.h>

#include <fstream>

#include <gtest/gtest.h>

using namespace nicd::sim::capture;
namespace fs = std::filesystem;

class CaptureTreeWriter : public nicd::test::TempDirTest {
protected:
    void SetUp() override
    {
        TempDirTest::SetUp();
        cap_ = dir_ / "cap";
        fs::create_directories(cap_);
    }
    bool outsideIsEmpty() const
    {
        for (const auto& e : fs::directory_iterator(dir_))
            if (e.path() != cap_)
                return false;
        return true;
    }
    fs::path cap_;
};

TEST_F(CaptureTreeWriter, EntriesAreWrittenWithTheirKinds)
{
    CaptureTree tree;
    tree.file("sys/class/net/eth0/mtu", "1500\n");
    tree.symlink("sys/class/net/eth1", "../../devices/virtual/net/eth1");
    tree.fifo("sys/devices/x/counters/a");
    tree.dir("var/lib/nicd");
    writeTree(tree, cap_);
    std::ifstream in(cap_ / "sys/class/net/eth0/mtu");
    std::string mtu;
    in >> mtu;
    EXPECT_EQ(mtu, "1500");
    EXPECT_EQ(fs::read_symlink(cap_ / "sys/class/net/eth1"), "../../devices/virtual/net/eth1");
    EXPECT_TRUE(fs::is_fifo(cap_ / "sys/devices/x/counters/a"));
    EXPECT_TRUE(fs::is_directory(cap_ / "var/lib/nicd"));
}

TEST_F(CaptureTreeWriter, NothingIsWrittenOutsideTheCapture)
{
    for (const char* bad : {"../etc/x", "/etc/x", "run/../../x", "a//b", "./a"}) {
        CaptureTree tree;
        tree.file(bad, "x\n");
        EXPECT_THROW(writeTree(tree, cap_), nicd::sim::SimError) << bad;
    }
    // A link in the tree leading out, and an entry below it (sorted after it): refused.
    CaptureTree tree;
    tree.symlink("sys/x", dir_.string());
    tree.file("sys/x/.bashrc", "evil\n");
    EXPECT_THROW(writeTree(tree, cap_), nicd::sim::SimError);
    EXPECT_FALSE(fs::exists(dir_ / ".bashrc"));
    EXPECT_TRUE(outsideIsEmpty());
}

TEST_F(CaptureTreeWriter, HostPathsStayInsideTheSource)
{
    const auto src = dir_ / "src";
    fs::create_directories(src / "run");
    // As the host path it stands for: nothing is above /.
    EXPECT_EQ(insideSource(src, src / "../etc/x"), "etc/x");
    EXPECT_EQ(insideSource(src, src / "run/../../../etc/x"), "etc/x");
    EXPECT_EQ(insideSource(src, src / "run/mellanox/drivers/.driver-ready"),
              "run/mellanox/drivers/.driver-ready");
    // A symlink of the tree that leads out of it: not read.
    fs::create_directory_symlink(dir_, src / "run/out");
    EXPECT_EQ(insideSource(src, src / "run/out/x"), std::nullopt);
    EXPECT_EQ(insideSource(src, src), std::nullopt);
    // One that stays inside is followed: the file is read where it is.
    fs::create_directories(src / "srv/state");
    fs::create_directory_symlink("../srv/state", src / "run/state");
    EXPECT_EQ(insideSource(src, src / "run/state/state.json"), "srv/state/state.json");
}

TEST_F(CaptureTreeWriter, AKeptLinkNeverLeadsOutOfTheCapture)
{
    // sysfs's own links are kept as they are.
    EXPECT_EQ(keptLinkTarget("sys/class/net/ens1f0np0", "../../devices/pci0000:1a/net/ens1f0np0"),
              "../../devices/pci0000:1a/net/ens1f0np0");
    // An absolute one is taken from the node's root; one that climbs stops at the root, as at "/".
    EXPECT_EQ(keptLinkTarget("sys/devices/x/fw_ver", "/etc/shadow"), "../../../etc/shadow");
    EXPECT_EQ(keptLinkTarget("sys/class/net/x", "../../../../../../../etc/shadow"),
              "../../../etc/shadow");
    EXPECT_EQ(keptLinkTarget("a", "."), ".");
}

TEST_F(CaptureTreeWriter, TheTarballIsNewAndPrivate)
{
    CaptureTree tree;
    tree.file("etc/nicd/nicd.conf", "[daemon]\n");
    writeTree(tree, cap_);
    const auto tarball = dir_ / "cap.tar.gz";
    ASSERT_EQ(writeTarball(cap_, tarball, 0), "");
    struct stat st {};
    ASSERT_EQ(::stat(tarball.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600U);
    // Never replaced, nor written through a link someone put there.
    EXPECT_NE(writeTarball(cap_, tarball, 0), "");
    fs::remove(tarball);
    fs::create_symlink(dir_ / "victim", tarball);
    EXPECT_NE(writeTarball(cap_, tarball, 0), "");
    EXPECT_FALSE(fs::exists(dir_ / "victim"));
}
