// nicd-sim writes into a simulated node, which a test, a shell or another machine's capture may
// have put symlinks in: inject, list and create never write through one. A link where a file is
// written is refused naming it, a link on the way that leads out of the node is refused, and the
// place either points at is left as it was; the node's own relative links (sys/class/net/<netdev>
// into sys/devices) still work.
#include "sim.hpp"
#include "support/sim_tree.hpp"

#include <fstream>

#include <gtest/gtest.h>

namespace fs = std::filesystem;
using namespace nicd;
using test::readFile;

namespace {

class SimLinksTest : public test::SimDirTest {
protected:
    void SetUp() override
    {
        SimDirTest::SetUp();
        outside_ = dir_.parent_path() / (dir_.filename().string() + "-outside");
        fs::remove_all(outside_);
        fs::create_directories(outside_);
        std::ofstream(outside_ / "victim") << "keep me\n";
    }
    void TearDown() override
    {
        fs::remove_all(outside_);
        SimDirTest::TearDown();
    }
    // The message of the SimError `f` throws; empty when it throws none.
    template <typename F> std::string refusal(F f)
    {
        try {
            f();
        } catch (const sim::SimError& e) {
            return e.what();
        }
        return {};
    }
    std::set<std::string> outside() const
    {
        std::set<std::string> names;
        for (const auto& e : fs::directory_iterator(outside_))
            names.insert(e.path().filename().string());
        return names;
    }

    fs::path outside_;
};

} // namespace

TEST_F(SimLinksTest, InjectRefusesALinkWhereItWritesAFile)
{
    sim::create(dir_, {});
    const auto operstate = fs::canonical(dir_ / "sys/class/net/ens1f0np0") / "operstate";
    fs::remove(operstate);
    fs::create_symlink(outside_ / "victim", operstate);
    auto why = refusal([&] { sim::linkDown(dir_, "mlx5_0"); });
    EXPECT_NE(why.find("cannot replace " + (dir_ / "sys/class/net/ens1f0np0/operstate").string() +
                       ": it is a symlink"),
              std::string::npos)
        << why;
    EXPECT_EQ(readFile(outside_ / "victim"), "keep me\n");
    EXPECT_TRUE(fs::is_symlink(operstate)) << "neither written through nor replaced";
}

TEST_F(SimLinksTest, InjectRefusesALinkOnTheWayOutOfTheNode)
{
    sim::create(dir_, {});
    fs::rename(dir_ / "run/nicd-sim/ethtool", outside_ / "ethtool");
    fs::create_directory_symlink(outside_ / "ethtool", dir_ / "run/nicd-sim/ethtool");
    const auto before = test::snapshotTree(outside_);
    auto why = refusal([&] { sim::addToCounter(dir_, "mlx5_0", "rx_discards_phy", 5); });
    EXPECT_NE(why.find("leads out of the tree"), std::string::npos) << why;
    EXPECT_EQ(test::snapshotTree(outside_), before) << "nothing written out there";
}

TEST_F(SimLinksTest, TheNodesOwnLinksStillLeadToItsFiles)
{
    sim::create(dir_, {});
    sim::linkDown(dir_, "mlx5_0"); // writes sys/class/net/<netdev>/... through the class link
    EXPECT_EQ(readFile(dir_ / "sys/class/net/ens1f0np0/operstate"), "down\n");
}

TEST_F(SimLinksTest, ListNeverTakesItsLockThroughALink)
{
    sim::create(dir_, {});
    fs::rename(dir_ / "run/nicd-sim", outside_ / "nicd-sim");
    fs::create_directory_symlink(outside_ / "nicd-sim", dir_ / "run/nicd-sim");
    fs::remove(outside_ / "nicd-sim/lock");
    auto why = refusal([&] { (void)sim::list(dir_); });
    EXPECT_NE(why.find("run/nicd-sim"), std::string::npos) << why;
    EXPECT_FALSE(fs::exists(outside_ / "nicd-sim/lock")) << "no lock file made out there";
}

TEST_F(SimLinksTest, CreateRefusesATopDirectoryThatIsALink)
{
    fs::create_directory_symlink(outside_, dir_ / "etc");
    auto why = refusal([&] { sim::create(dir_, {}); });
    EXPECT_NE(why.find((dir_ / "etc").string() + " is in the way"), std::string::npos) << why;
    EXPECT_EQ(outside(), std::set<std::string>{"victim"});
    EXPECT_FALSE(fs::exists(dir_ / "sys"));
}
