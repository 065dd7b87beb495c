// The link state of the netdevs and ports between full walks: every RDMA netdev and bond read,
// state changes seen at once and device changes at a full walk, files of settled directories
// kept open across reads and following renames, removals and in-place changes.
#include "support/inventory_fixture.hpp"

#include <gtest/gtest.h>

using namespace nicd;
using namespace nicd::test;

TEST_F(InventoryTest, NetdevStatesOfEveryRdmaNetdevAndBond)
{
    test::SysfsTree t(dir_);
    buildNode(t);
    t.makeUnreadable(t.netDir("ens5f1np1") + "/carrier"); // what EINVAL (admin down) looks like
    HostPaths paths(dir_);
    auto inv = inventory::discoverInventory(paths);
    auto states = inventory::NetdevStateReader(paths).read(inv);

    Strings seen;
    for (const auto& [name, st] : states)
        seen.push_back(name);
    // Every netdev a port names (ens1f0np0.100 does not exist: left out), plus bond masters.
    EXPECT_EQ(seen, (Strings{"bond0", "bond1", "ens1f0np0", "ens1f0v0", "ens1f1np1", "ens6f0np0",
                             "ib0", "ib1"}));
    EXPECT_EQ(states.at("ens1f0np0").operstate, "up");
    EXPECT_EQ(states.at("ens1f0np0").carrier, true);
    EXPECT_TRUE(states.at("ens1f0np0").ifindex.has_value());
    EXPECT_EQ(states.at("ens1f1np1").operstate, "down");
    EXPECT_EQ(states.at("ens1f1np1").carrier, false);
    EXPECT_EQ(states.at("ens1f0np0").name, "ens1f0np0");

    auto slave = inventory::readNetdevState(paths, "ens5f1np1");
    EXPECT_FALSE(slave.carrier);
    EXPECT_EQ(slave.operstate, "up");
    auto gone = inventory::readNetdevState(paths, "nosuch0");
    EXPECT_EQ(gone.operstate, "unknown");
    EXPECT_FALSE(gone.carrier);
    EXPECT_FALSE(gone.ifindex);
}

TEST_F(InventoryTest, ReaderSeesStateChangesAtOnceAndDeviceChangesWithAFullWalk)
{
    test::SysfsTree t(dir_);
    buildNode(t);
    inventory::InventoryReader reader(HostPaths(dir_), 1000);
    ASSERT_EQ(reader.read().devices.size(), 7U);

    t.write(t.ibDir("mlx5_0") + "/ports/1/state", "1: DOWN");
    t.write(t.ibDir("mlx5_0") + "/ports/1/phys_state", "3: Disabled");
    auto second = reader.read(); // a refresh of port attributes only
    EXPECT_EQ(second.find("mlx5_0")->ports[0].state, 1);
    EXPECT_EQ(second.find("mlx5_0")->ports[0].phys_state_name, "Disabled");

    fs::remove(dir_ / "sys/class/infiniband/mlx5_2");
    auto third = reader.read(); // the set changed: full walk
    EXPECT_EQ(third.devices.size(), 6U);
    EXPECT_EQ(third.find("mlx5_2"), nullptr);

    // A netdev renamed behind our back shows only after invalidate().
    t.write(t.ibDir("mlx5_0") + "/ports/1/gid_attrs/ndevs/0", "renamed0");
    t.write(t.ibDir("mlx5_0") + "/ports/1/gid_attrs/ndevs/1", "renamed0");
    t.write(t.ibDir("mlx5_0") + "/ports/1/gid_attrs/ndevs/3", "renamed0");
    EXPECT_EQ(reader.read().find("mlx5_0")->ports[0].netdevs,
              (Strings{"ens1f0np0", "ens1f0np0.100"}));
    reader.invalidate();
    EXPECT_EQ(reader.read().find("mlx5_0")->ports[0].netdevs, Strings{"renamed0"});
}

// A device that left while a full walk ran (listed before it, not found by it) and is back by the
// next read: the next read walks again, so the device is not missing until the timed walk. (Found
// as a 10-s false device_missing when a NIC was removed and restored in quick succession.) An
// entry no walk can read costs one more walk, not one at every read.
TEST_F(InventoryTest, ADeviceGoneDuringTheWalkAndBackIsSeenAtTheNextRead)
{
    test::SysfsTree t(dir_);
    buildNode(t);
    const fs::path link = dir_ / "sys/class/infiniband/mlx5_2";
    const fs::path target = fs::read_symlink(link);
    fs::remove(link); // listed, but nothing behind it while the walk runs: gone in the middle
    fs::create_symlink("../../devices/nowhere", link);
    inventory::InventoryReader reader(HostPaths(dir_), 1000);
    ASSERT_EQ(reader.read().find("mlx5_2"), nullptr);
    fs::remove(link); // back, under the same name
    fs::create_symlink(target, link);
    EXPECT_NE(reader.read().find("mlx5_2"), nullptr) << "the next read walks again";

    // An entry no walk finds (a dangling link that stays): one more walk, then refreshes only,
    // which a netdev renamed behind the reader's back shows (it is seen at a full walk only).
    fs::create_symlink("../../devices/nowhere", dir_ / "sys/class/infiniband/mlx5_99");
    EXPECT_EQ(reader.read().find("mlx5_99"), nullptr); // the set changed: a walk
    EXPECT_EQ(reader.read().find("mlx5_99"), nullptr); // missed again: taken as it is
    for (const char* i : {"0", "1", "3"})
        t.write(t.ibDir("mlx5_0") + "/ports/1/gid_attrs/ndevs/" + i, "renamed0");
    EXPECT_NE(reader.read().find("mlx5_0")->ports[0].netdevs, Strings{"renamed0"})
        << "a full walk at every read";
}

namespace {
// A directory as it is on a running node, last changed long ago: its files are kept open.
void settle(const fs::path& dir)
{
    timespec times[2] = {{0, UTIME_OMIT}, {::time(nullptr) - 3600, 0}};
    ASSERT_EQ(::utimensat(AT_FDCWD, dir.c_str(), times, 0), 0);
}

// Rewrites a file in place (as sysfs changes an attribute), not through a new file.
void rewrite(const fs::path& p, const std::string& text)
{
    std::fstream f(p, std::ios::in | std::ios::out | std::ios::trunc);
    f << text << "\n";
}
} // namespace

TEST_F(InventoryTest, KeptOpenNetdevStatesFollowChangesRenamesAndRemovals)
{
    test::SysfsTree t(dir_);
    buildNode(t);
    HostPaths paths(dir_);
    auto inv = inventory::discoverInventory(paths);
    auto up = t.path(t.netDir("ens1f0np0"));
    auto down = t.path(t.netDir("ens1f1np1"));
    settle(up);
    settle(down);
    inventory::NetdevStateReader reader(paths);
    auto first = reader.read(inv);
    for (const auto& [name, st] : first) // the same as reading each file afresh
        EXPECT_EQ(st, inventory::readNetdevState(paths, name)) << name;
    EXPECT_EQ(first.at("ens1f0np0").operstate, "up");

    rewrite(up / "operstate", "lowerlayerdown"); // in place: read again through the kept file
    rewrite(up / "carrier", "0");
    settle(up);
    auto second = reader.read(inv);
    EXPECT_EQ(second.at("ens1f0np0").operstate, "lowerlayerdown");
    EXPECT_EQ(second.at("ens1f0np0").carrier, false);
    EXPECT_EQ(second.at("ens1f1np1").operstate, "down");

    // The two interfaces swap names (udev at boot): each name reads the interface now there,
    // from the read after rtnetlink's news of the renames...
    auto aside = up.parent_path() / "swap-aside";
    fs::rename(up, aside);
    fs::rename(down, up);
    fs::rename(aside, down);
    settle(up);
    settle(down);
    reader.namesMayHaveChanged();
    auto third = reader.read(inv);
    EXPECT_EQ(third.at("ens1f0np0").operstate, "down");
    EXPECT_EQ(third.at("ens1f1np1").operstate, "lowerlayerdown");
    // ... and without it (no rtnetlink for a simulated node) within a few reads.
    fs::rename(up, aside);
    fs::rename(down, up);
    fs::rename(aside, down);
    settle(up);
    settle(down);
    unsigned reads = 0;
    while (reads < plugin::sdk::CounterDir::kPathCheckEvery &&
           reader.read(inv).at("ens1f0np0").operstate != "lowerlayerdown")
        ++reads;
    EXPECT_LT(reads, plugin::sdk::CounterDir::kPathCheckEvery);

    fs::remove_all(up); // gone (moved to another namespace): left out
    auto fourth = reader.read(inv);
    EXPECT_FALSE(fourth.contains("ens1f0np0"));
    EXPECT_TRUE(fourth.contains("ens1f1np1"));

    // bond0 is named twice (the LAG's port netdev and its bond_master). Deleted while the
    // inventory still names it (ip link del bond0): left out, cycle after cycle.
    ASSERT_TRUE(fourth.contains("bond0"));
    fs::remove_all(t.path(t.netDir("bond0")));
    fs::remove(dir_ / "sys/class/net/bond0");
    for (int cycle = 0; cycle < 3; ++cycle) {
        auto later = reader.read(inv);
        EXPECT_FALSE(later.contains("bond0"));
        EXPECT_TRUE(later.contains("ens1f1np1"));
    }
}

namespace {
size_t openDescriptors()
{
    size_t n = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator("/proc/self/fd"))
        ++n;
    return n;
}
} // namespace

// What the reader is for: the files of a settled directory stay open from one read to the next.
TEST_F(InventoryTest, NetdevStateFilesStayOpenBetweenReads)
{
    test::SysfsTree t(dir_);
    buildNode(t);
    HostPaths paths(dir_);
    auto inv = inventory::discoverInventory(paths);
    auto states =
        inventory::NetdevStateReader(paths).read(inv); // the directories not yet settled: afresh
    for (const auto& [name, st] : states) {
        settle(t.path(t.netDir(name)));
        if (fs::is_symlink(dir_ / "sys/class/net" / name))
            settle(fs::canonical(dir_ / "sys/class/net" / name));
    }
    size_t before = openDescriptors();
    inventory::NetdevStateReader reader(paths);
    EXPECT_EQ(reader.read(inv), states);
    size_t held = openDescriptors() - before;
    // A directory and its three files each (carrier of ens5f1np1 is unreadable: reopened).
    EXPECT_GE(held, 3 * states.size());
    EXPECT_EQ(reader.read(inv), states);
    EXPECT_EQ(openDescriptors() - before, held) << "the second read opens nothing new";
}

TEST_F(InventoryTest, KeptOpenPortStatesFollowInPlaceChanges)
{
    test::SysfsTree t(dir_);
    buildNode(t);
    auto port = t.path(t.ibDir("mlx5_0") + "/ports/1");
    settle(port);
    inventory::InventoryReader reader(HostPaths(dir_), 1000);
    reader.read();                                              // the full walk
    EXPECT_EQ(reader.read().find("mlx5_0")->ports[0].state, 4); // a refresh: files kept open
    rewrite(port / "state", "1: DOWN");
    rewrite(port / "rate", "100 Gb/sec (2X HDR)");
    auto inv = reader.read();
    EXPECT_EQ(inv.find("mlx5_0")->ports[0].state, 1);
    EXPECT_EQ(inv.find("mlx5_0")->ports[0].state_name, "DOWN");
    EXPECT_EQ(inv.find("mlx5_0")->ports[0].rate_gbps, 100.0);
    fs::remove(port / "phys_state"); // what cannot be read is absent, the rest still read
    inv = reader.read();
    EXPECT_FALSE(inv.find("mlx5_0")->ports[0].phys_state.has_value());
    EXPECT_EQ(inv.find("mlx5_0")->ports[0].state, 1);
}

// The mechanism under both readers: within a pass a path is one directory, and finishing the pass
// closes what it did not use.
TEST_F(InventoryTest, KeptDirsCloseWhatAPassDidNotUse)
{
    for (const char* name : {"a", "b"}) {
        fs::create_directories(dir_ / name);
        std::ofstream(dir_ / name / "state") << "1\n";
        settle(dir_ / name);
    }
    auto read = [](plugin::sdk::CounterDir& d) {
        std::string text;
        d.forEach({}, [&](std::string_view, std::string_view t, int) { text = t; });
        return text;
    };
    inventory::KeptDirs dirs;
    const std::string a = (dir_ / "a").string(), b = (dir_ / "b").string();
    size_t before = openDescriptors();
    EXPECT_FALSE(dirs.used(a));
    EXPECT_EQ(read(dirs.use(a)), "1\n");
    EXPECT_EQ(read(dirs.use(b)), "1\n");
    EXPECT_TRUE(dirs.used(a));
    EXPECT_EQ(&dirs.use(a), &dirs.use(a)) << "one directory per path within a pass";
    dirs.finish();
    EXPECT_FALSE(dirs.used(a)) << "a new pass";
    size_t both = openDescriptors();
    EXPECT_GE(both, before + 4); // two directories and their files
    dirs.use(a);
    dirs.finish(); // b was not used: closed
    EXPECT_EQ(openDescriptors(), both - 2);
}
