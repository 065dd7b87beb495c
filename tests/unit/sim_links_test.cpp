// nicd-sim writes into a simulated node, which a test, a shell or another machine's capture may
// have put symlinks in: inject, list and create never write through one. A link where a file is
// written is refused naming it, a link on the way that leads out of the node is refused, and the
// place either points at is left as it was; the node's own relative links (sys/class/net/<netdev>
// into sys/devices) still work.
#include "readiness_twins.hpp"
#include "sim.hpp"
#include "support/sim_tree.hpp"

#include <sys/stat.h>

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

namespace {

// Moves the node's directory `rel` out of the node (to outside/<as>) and plants a link to it in
// its place, as someone with a shell on the tree could; returns where it went.
fs::path plantOutside(const fs::path& node, const fs::path& outside, const std::string& rel,
                      const std::string& as)
{
    const auto out = outside / as;
    fs::rename(node / rel, out);
    fs::create_directory_symlink(out, node / rel);
    return out;
}

// Every entry under `dir`, with its type and mode: what a fault must leave as it was.
std::map<std::string, std::string> snapshotOf(const fs::path& dir)
{
    std::map<std::string, std::string> out;
    for (const auto& e : fs::recursive_directory_iterator(dir)) {
        struct stat st {};
        ::lstat(e.path().c_str(), &st);
        out[e.path().lexically_relative(dir).string()] = std::to_string(st.st_mode);
    }
    return out;
}

} // namespace

// Each fault that changes files, modes or directories acts on descriptors opened beneath the
// node: a link planted on its way (to a directory outside) is refused, and what lies outside
// keeps its entries, types and modes.
TEST_F(SimLinksTest, FaultsActNeverThroughALinkPlantedOnTheirWay)
{
    sim::create(dir_, {});
    const std::string ib = [&] {
        auto dev = fs::canonical(dir_ / "sys/class/infiniband/mlx5_0");
        return dev.parent_path().lexically_relative(fs::canonical(dir_)).string();
    }();

    // refuse / refuse-clear: a counter file that is a link to a file outside.
    const auto counters = ib + "/mlx5_0/ports/1/counters";
    fs::remove(dir_ / counters / "symbol_error");
    fs::create_symlink(outside_ / "victim", dir_ / counters / "symbol_error");
    fs::permissions(outside_ / "victim",
                    fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
    auto before = snapshotOf(outside_);
    EXPECT_NE(refusal([&] { sim::refuseCounter(dir_, "mlx5_0", "symbol_error", true); }), "");
    EXPECT_NE(refusal([&] { sim::refuseCounter(dir_, "mlx5_0", "symbol_error", false); }), "");
    EXPECT_EQ(snapshotOf(outside_), before) << "refuse changed a mode outside the node";

    // stall: the counters/ directory is a link to a directory outside with a counter's name.
    const auto moved = plantOutside(dir_, outside_, counters, "counters");
    before = snapshotOf(outside_);
    (void)refusal([&] { sim::stall(dir_, "mlx5_0"); });
    EXPECT_EQ(snapshotOf(outside_), before) << "stall made FIFOs outside the node";
    fs::remove(dir_ / counters);
    fs::rename(moved, dir_ / counters);

    // remove, rename: the device's infiniband/ directory is a link to one outside.
    const auto ib_out = plantOutside(dir_, outside_, ib, "device");
    before = snapshotOf(outside_);
    EXPECT_NE(refusal([&] { sim::remove(dir_, "mlx5_0"); }), "");
    EXPECT_NE(refusal([&] { sim::rename(dir_, "mlx5_0", "roce_a"); }), "");
    EXPECT_EQ(snapshotOf(outside_), before) << "a device directory outside was moved";
    EXPECT_TRUE(fs::exists(ib_out / "mlx5_0"));

    // uverbs-missing: dev/infiniband is a link to a directory outside.
    plantOutside(dir_, outside_, "dev/infiniband", "dev");
    before = snapshotOf(outside_);
    (void)refusal([&] { sim::uverbsMissing(dir_, "mlx5_1", true); });
    EXPECT_EQ(snapshotOf(outside_), before) << "uverbs-missing removed a file outside";
    (void)refusal([&] { sim::umadMissing(dir_, "mlx5_4", true); });
    EXPECT_EQ(snapshotOf(outside_), before) << "umad-missing removed a file outside";

    // peermem-unload: sys/module is a link to a directory outside.
    plantOutside(dir_, outside_, "sys/module", "module");
    before = snapshotOf(outside_);
    (void)refusal([&] { sim::peermemUnload(dir_, true); });
    EXPECT_EQ(snapshotOf(outside_), before) << "peermem-unload removed a directory outside";
}
