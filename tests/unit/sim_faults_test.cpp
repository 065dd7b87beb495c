// Link, device and firmware faults of the simulated node: each changes exactly the files it
// should, and the device-level ones undo completely (a rename changes the name alone).
#include "sim.hpp"
#include "support/sim_tree.hpp"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <chrono>
#include <future>
#include <thread>

#include <gtest/gtest.h>

namespace fs = std::filesystem;
using namespace nicd;
using test::readFile;

namespace {

class SimFaultsTest : public test::SimDirTest {
protected:
    void SetUp() override
    {
        SimDirTest::SetUp();
        sim::create(dir_, {});
    }
    fs::path ib(const std::string& dev)
    {
        return fs::canonical(dir_ / "sys/class/infiniband" / dev);
    }
    fs::path net(const std::string& nd) { return fs::canonical(dir_ / "sys/class/net" / nd); }
    std::string rel(const fs::path& p) { return fs::relative(p, dir_).string(); }
    test::TreeSnapshot snap()
    {
        auto s = test::snapshotTree(dir_);
        std::erase_if(s, [](const auto& kv) { return kv.first.starts_with("run/nicd-sim/"); });
        return s;
    }
};

} // namespace

TEST_F(SimFaultsTest, LinkDownChangesExactlyThePortAndItsNetdev)
{
    auto port = ib("mlx5_2") / "ports/1";
    auto nd = net("ens3f0np0");
    auto before = snap();
    sim::linkDown(dir_, "mlx5_2");
    auto after = snap();
    EXPECT_EQ(test::changedPaths(before, after),
              (std::set<std::string>{rel(port / "state"), rel(port / "phys_state"),
                                     rel(port / "counters/link_downed"), rel(nd / "operstate"),
                                     rel(nd / "carrier"), rel(nd / "speed"), rel(nd / "duplex"),
                                     rel(nd / "carrier_changes")}));
    EXPECT_EQ(readFile(port / "state"), "1: DOWN\n");
    EXPECT_EQ(readFile(port / "phys_state"), "3: Disabled\n");
    EXPECT_EQ(readFile(nd / "operstate"), "down\n");
    EXPECT_EQ(readFile(nd / "carrier"), "0\n");
    EXPECT_EQ(readFile(nd / "carrier_changes"), "3\n");
    EXPECT_EQ(sim::counterValue(dir_, "mlx5_2", "link_downed"), 1U);
    EXPECT_EQ(sim::counterValue(dir_, "mlx5_2", "link_down_events_phy"), 1U);

    sim::linkDown(dir_, "mlx5_2"); // already down: nothing more happens
    EXPECT_EQ(sim::counterValue(dir_, "mlx5_2", "link_downed"), 1U);

    sim::linkUp(dir_, "mlx5_2", 1);
    auto up = snap();
    EXPECT_EQ(readFile(port / "state"), "4: ACTIVE\n");
    EXPECT_EQ(readFile(port / "phys_state"), "5: LinkUp\n");
    EXPECT_EQ(readFile(nd / "operstate"), "up\n");
    EXPECT_EQ(readFile(nd / "carrier"), "1\n");
    EXPECT_EQ(readFile(nd / "speed"), "400000\n");
    // Back as before, except the counters that remember the flap.
    EXPECT_EQ(
        test::changedPaths(before, up),
        (std::set<std::string>{rel(port / "counters/link_downed"), rel(nd / "carrier_changes")}));
    EXPECT_THROW(sim::linkDown(dir_, "mlx5_2", 2), sim::SimError); // no port 2
}

// A link that drops and never trains again: the port polls for its partner, its netdev has no
// carrier, and no link-down counter moves (nicd's link_drop). link-drop-clear (linkUp) brings it
// back as it was, but for the carrier changes.
TEST_F(SimFaultsTest, LinkDropPollsWithoutMovingTheLinkDownCounters)
{
    auto port = ib("mlx5_2") / "ports/1";
    auto nd = net("ens3f0np0");
    auto before = snap();
    sim::linkDrop(dir_, "mlx5_2");
    EXPECT_EQ(test::changedPaths(before, snap()),
              (std::set<std::string>{rel(port / "state"), rel(port / "phys_state"),
                                     rel(nd / "operstate"), rel(nd / "carrier"), rel(nd / "speed"),
                                     rel(nd / "duplex"), rel(nd / "carrier_changes")}));
    EXPECT_EQ(readFile(port / "state"), "1: DOWN\n");
    EXPECT_EQ(readFile(port / "phys_state"), "2: Polling\n");
    EXPECT_EQ(readFile(nd / "carrier"), "0\n");
    EXPECT_EQ(sim::counterValue(dir_, "mlx5_2", "link_downed"), 0U);
    EXPECT_EQ(sim::counterValue(dir_, "mlx5_2", "link_down_events_phy"), 0U);
    sim::linkUp(dir_, "mlx5_2");
    EXPECT_EQ(readFile(port / "state"), "4: ACTIVE\n");
    EXPECT_EQ(readFile(port / "phys_state"), "5: LinkUp\n");
    EXPECT_EQ(test::changedPaths(before, snap()),
              std::set<std::string>{rel(nd / "carrier_changes")});
    // A port already down (Disabled) that drops: it polls now, nothing else moves.
    sim::linkDown(dir_, "mlx5_2");
    sim::linkDrop(dir_, "mlx5_2");
    EXPECT_EQ(readFile(port / "phys_state"), "2: Polling\n");
    EXPECT_EQ(sim::counterValue(dir_, "mlx5_2", "link_downed"), 1U);
}

TEST_F(SimFaultsTest, LagLinkDownTakesTheBondAndItsSlavesDown)
{
    sim::linkDown(dir_, "mlx5_bond_0");
    for (const char* nd : {"bond0", "ens5f0np0", "ens5f1np1"})
        EXPECT_EQ(readFile(net(nd) / "operstate"), "down\n") << nd;
    EXPECT_EQ(readFile(ib("mlx5_bond_0") / "ports/1/state"), "1: DOWN\n");
    sim::linkUp(dir_, "mlx5_bond_0");
    EXPECT_EQ(readFile(net("bond0") / "speed"), "800000\n");
    EXPECT_EQ(readFile(net("ens5f1np1") / "carrier"), "1\n");
}

TEST_F(SimFaultsTest, DownPortComesUp)
{
    sim::linkUp(dir_, "mlx5_6");
    EXPECT_EQ(readFile(ib("mlx5_6") / "ports/1/state"), "4: ACTIVE\n");
    EXPECT_EQ(readFile(net("ens6f0np0") / "operstate"), "up\n");
    sim::tick(dir_, 1);
    EXPECT_GT(sim::counterValue(dir_, "mlx5_6", "port_rcv_data"), 0U);
}

TEST_F(SimFaultsTest, FlapCountsEveryDownAndEndsUp)
{
    sim::flap(dir_, "mlx5_3", 3);
    EXPECT_EQ(readFile(ib("mlx5_3") / "ports/1/state"), "4: ACTIVE\n");
    EXPECT_EQ(readFile(net("ens4f0np0") / "operstate"), "up\n");
    EXPECT_EQ(sim::counterValue(dir_, "mlx5_3", "link_downed"), 3U);
    EXPECT_EQ(sim::counterValue(dir_, "mlx5_3", "link_down_events_phy"), 3U);
    EXPECT_EQ(readFile(net("ens4f0np0") / "carrier_changes"), "8\n"); // 2 + 3 downs + 3 ups
    EXPECT_THROW(sim::flap(dir_, "mlx5_3", 0), sim::SimError);
}

// A flap held in time (--down-sec, --up-sec): the node is unlocked while down, so that another
// nicd-sim command (and nicd) sees the port down meanwhile.
TEST_F(SimFaultsTest, AFlapHeldInTimeIsDownWhileItLasts)
{
    auto flapping = std::async(std::launch::async, [&] { sim::flap(dir_, "mlx5_3", 1, 0, 1.0); });
    auto state = ib("mlx5_3") / "ports/1/state";
    bool seen_down = false;
    for (int i = 0; i < 100 && !seen_down; ++i) {
        seen_down = readFile(state) == "1: DOWN\n";
        if (!seen_down)
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    EXPECT_TRUE(seen_down);
    sim::addToCounter(dir_, "mlx5_3", "symbol_error", 1); // takes the lock: not held
    flapping.get();
    EXPECT_EQ(readFile(state), "4: ACTIVE\n");
    EXPECT_EQ(sim::counterValue(dir_, "mlx5_3", "link_downed"), 1U);
    EXPECT_THROW(sim::flap(dir_, "mlx5_3", 1, 0, -1), sim::SimError);
}

TEST_F(SimFaultsTest, RemoveAndRestoreRoundTrip)
{
    sim::tick(dir_, 1);
    auto before = snap();
    auto ibdir = ib("mlx5_3");
    sim::remove(dir_, "mlx5_3");
    EXPECT_FALSE(fs::exists(dir_ / "sys/class/infiniband/mlx5_3"));
    EXPECT_FALSE(fs::is_symlink(dir_ / "sys/class/infiniband/mlx5_3"));
    EXPECT_FALSE(fs::exists(ibdir));
    EXPECT_TRUE(fs::exists(dir_ / "sys/class/net/ens4f0np0")); // the netdev stays
    EXPECT_TRUE(fs::exists(ibdir.parent_path().parent_path() / "vendor"));
    for (const auto& p : test::changedPaths(before, snap()))
        EXPECT_TRUE(p == "sys/class/infiniband/mlx5_3" || p.starts_with(rel(ibdir))) << p;
    EXPECT_NE(sim::list(dir_)[3].find("removed"), std::string::npos);
    EXPECT_THROW(sim::remove(dir_, "mlx5_3"), sim::SimError);
    EXPECT_THROW(sim::linkDown(dir_, "mlx5_3"), sim::SimError);
    EXPECT_THROW(sim::addToCounter(dir_, "mlx5_3", "symbol_error", 1), sim::SimError);
    sim::tick(dir_, 1); // a removed device is skipped
    sim::restore(dir_, "mlx5_3");
    auto restored = snap();
    // Identical, but for the other devices' counters that advanced meanwhile.
    for (const auto& p : test::changedPaths(before, restored))
        EXPECT_EQ(p.find("mlx5_3"), std::string::npos) << p;
    EXPECT_EQ(restored.size(), before.size());
    EXPECT_THROW(sim::restore(dir_, "mlx5_3"), sim::SimError);
}

// udev's rdma_rename: the device's directory and class link take the new name; its files, PCI
// function, netdevs and counters (with what was injected into them) stay as they were.
TEST_F(SimFaultsTest, RenameChangesTheNameAndNothingElse)
{
    sim::addToCounter(dir_, "mlx5_0", "symbol_error", 5);
    sim::setRate(dir_, "mlx5_0", "symbol_error", 2);
    auto before = snap();
    const auto old_dir = rel(ib("mlx5_0"));
    sim::rename(dir_, "mlx5_0", "rocep26s0f0");
    const auto new_dir = rel(ib("rocep26s0f0"));
    EXPECT_EQ(new_dir, (fs::path(old_dir).parent_path() / "rocep26s0f0").string());
    EXPECT_FALSE(fs::exists(fs::symlink_status(dir_ / "sys/class/infiniband/mlx5_0")));
    test::TreeSnapshot moved; // `before` with the device's files under their new name
    for (auto [path, content] : before)
        if (path != "sys/class/infiniband/mlx5_0")
            moved[path.starts_with(old_dir + "/") ? new_dir + path.substr(old_dir.size()) : path] =
                content;
    // The uverbs, umad and issm devices name the device by its current name, as the kernel's
    // ibdev attribute.
    const std::string function = "sys/devices/pci0000:19/0000:19:01.0/0000:1a:00.0/";
    EXPECT_EQ(test::changedPaths(moved, snap()),
              (std::set<std::string>{"sys/class/infiniband/rocep26s0f0",
                                     function + "infiniband_verbs/uverbs0/ibdev",
                                     function + "infiniband_mad/umad0/ibdev",
                                     function + "infiniband_mad/issm0/ibdev"}));
    EXPECT_EQ(test::readFile(dir_ / "sys/class/infiniband_verbs/uverbs0/ibdev"), "rocep26s0f0\n");
    EXPECT_EQ(sim::counterValue(dir_, "rocep26s0f0", "symbol_error"), 5U);
    sim::tick(dir_, 1);
    EXPECT_EQ(sim::counterValue(dir_, "rocep26s0f0", "symbol_error"), 7U) << "the rate follows";
    EXPECT_THROW(sim::counterValue(dir_, "mlx5_0", "symbol_error"), sim::SimError);
    auto lines = sim::list(dir_);
    EXPECT_TRUE(lines.back().starts_with("rocep26s0f0 ")) << lines.back();
    EXPECT_NE(lines.back().find("0000:1a:00.0"), std::string::npos) << lines.back();

    EXPECT_THROW(sim::rename(dir_, "rocep26s0f0", "mlx5_1"), sim::SimError); // taken
    for (const char* bad : {"", "../x", "a/b", "a b"})
        EXPECT_THROW(sim::rename(dir_, "rocep26s0f0", bad), sim::SimError) << bad;
    sim::remove(dir_, "mlx5_2");
    EXPECT_THROW(sim::rename(dir_, "mlx5_2", "rocep76s0f0"), sim::SimError);
    EXPECT_TRUE(fs::is_symlink(dir_ / "sys/class/infiniband/rocep26s0f0"));
}

TEST_F(SimFaultsTest, StallBlocksCounterReadsUntilUnstallAnswersThem)
{
    sim::addToCounter(dir_, "mlx5_0", "symbol_error", 3);
    auto file = ib("mlx5_0") / "ports/1/counters/symbol_error";
    sim::stall(dir_, "mlx5_0");
    for (const auto& e : fs::directory_iterator(ib("mlx5_0") / "ports/1/counters"))
        EXPECT_TRUE(fs::is_fifo(e.path())) << e.path();
    EXPECT_TRUE(fs::is_regular_file(ib("mlx5_0") / "ports/1/hw_counters/out_of_buffer"));
    EXPECT_TRUE(fs::is_regular_file(ib("mlx5_1") / "ports/1/counters/symbol_error"));

    // A reader blocks, as on a firmware that stopped answering.
    auto reader = std::async(std::launch::async, [file] {
        int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
        std::string got;
        char buf[64];
        ssize_t n;
        while (fd >= 0 && (n = ::read(fd, buf, sizeof buf)) > 0)
            got.append(buf, static_cast<size_t>(n));
        if (fd >= 0)
            ::close(fd);
        return got;
    });
    EXPECT_EQ(reader.wait_for(std::chrono::milliseconds(100)), std::future_status::timeout);

    auto data_before = sim::counterValue(dir_, "mlx5_0", "port_rcv_data"); // from kept values
    sim::tick(dir_, 1);                                                    // does not block
    EXPECT_GT(sim::counterValue(dir_, "mlx5_0", "port_rcv_data"), data_before);
    sim::addToCounter(dir_, "mlx5_0", "symbol_error", 1);
    EXPECT_THROW(sim::stall(dir_, "mlx5_0"), sim::SimError);

    sim::unstall(dir_, "mlx5_0");
    ASSERT_EQ(reader.wait_for(std::chrono::seconds(5)), std::future_status::ready);
    EXPECT_EQ(reader.get(), "4\n");
    EXPECT_TRUE(fs::is_regular_file(file));
    EXPECT_EQ(readFile(file), "4\n");
    EXPECT_GT(std::stoull(readFile(ib("mlx5_0") / "ports/1/counters/port_rcv_data")), data_before);
    EXPECT_THROW(sim::unstall(dir_, "mlx5_0"), sim::SimError);
}

TEST_F(SimFaultsTest, ListShowsRolesStatesAndNetdevs)
{
    sim::linkDown(dir_, "mlx5_1");
    auto devs = sim::devices(dir_);
    ASSERT_EQ(devs.size(), 8U);
    std::map<std::string, sim::DeviceSummary> by;
    for (const auto& d : devs)
        by[d.name] = d;
    EXPECT_EQ(by["mlx5_0"].role, "pf");
    EXPECT_EQ(by["mlx5_4"].role, "ib");
    EXPECT_EQ(by["mlx5_5"].role, "vf");
    EXPECT_EQ(by["mlx5_bond_0"].role, "lag");
    EXPECT_EQ(by["mlx5_bond_0"].netdevs, std::vector<std::string>{"bond0"});
    EXPECT_EQ(by["mlx5_1"].port_states, std::vector<std::string>{"1:DOWN"});
    EXPECT_EQ(by["mlx5_0"].pci_address, "0000:1a:00.0");
    auto lines = sim::list(dir_);
    EXPECT_TRUE(lines[1].starts_with("mlx5_1 ")) << lines[1];
    EXPECT_NE(lines[1].find("1:DOWN"), std::string::npos);
    EXPECT_NE(lines[1].find("ens2f0np0"), std::string::npos);
}

// fw-old: a node that missed a firmware rollout, every card of the board alike.
TEST_F(SimFaultsTest, FwOldPutsEveryCardOfTheBoardOnTheOldFirmware)
{
    auto before = snap();
    sim::fwOld(dir_, "mlx5_0", true);
    auto changed = test::changedPaths(before, snap());
    std::set<std::string> devices;
    for (const auto& path : changed) {
        EXPECT_TRUE(path.ends_with("/fw_ver")) << path;
        EXPECT_EQ(readFile(dir_ / path), "28.37.1014\n") << path;
        devices.insert(fs::path(path).parent_path().filename().string());
    }
    // The default node's ConnectX cards all share one board: PFs, the IB port, the LAG, the VF.
    EXPECT_EQ(devices, (std::set<std::string>{"mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3", "mlx5_4",
                                              "mlx5_5", "mlx5_6", "mlx5_bond_0"}));
    sim::fwOld(dir_, "mlx5_0", false);
    EXPECT_EQ(snap(), before);
}
