// Discovery on real sysfs trees (fixtures from public projects) and on trees built in the kernel's
// layout: identity, PCI function, roles (PF, VF, LAG, bond member), ports, netdevs, link state of
// the netdevs, and values that are missing, unreadable or garbage.
#include "inventory/inventory_reader.hpp"
#include "inventory/netdev_state.hpp"
#include "inventory/sysfs_inventory.hpp"
#include "support/sysfs_tree.hpp"
#include "support/temp_dir.hpp"

#include <fcntl.h>
#include <sys/stat.h>

#include <ctime>
#include <fstream>

#include <gtest/gtest.h>

using namespace nicd;
namespace fs = std::filesystem;
using Strings = std::vector<std::string>;

namespace {

const fs::path kFixtures = fs::path(NICD_SHARED_DIR) / "fixtures";

class InventoryTest : public test::TempDirTest {
protected:
    // A root whose sys/class/infiniband (and optionally sys/class/net) are fixture directories.
    HostPaths fixtureRoot(const fs::path& class_infiniband, const fs::path& class_net = {})
    {
        fs::create_directories(dir_ / "sys/class");
        fs::create_symlink(class_infiniband, dir_ / "sys/class/infiniband");
        if (!class_net.empty())
            fs::create_symlink(class_net, dir_ / "sys/class/net");
        return HostPaths(dir_);
    }

    static const Device& dev(const Inventory& inv, const std::string& name)
    {
        static const Device none;
        auto* d = inv.find(name);
        EXPECT_NE(d, nullptr) << name << " was not discovered";
        return d ? *d : none;
    }

    static Strings names(const Inventory& inv)
    {
        Strings out;
        for (const auto& d : inv.devices)
            out.push_back(d.ibdev);
        return out;
    }

    // A node with one device of every kind, as the kernel lays it out.
    void buildNode(test::SysfsTree& t)
    {
        using T = test::SysfsTree;
        // mlx5_0: a RoCE PF; its GIDs name its netdev (and a VLAN on top of it).
        t.addPciFunction({.bdf = "0000:3b:00.0", .numa_node = 0});
        t.addIbDevice({.name = "mlx5_0", .bdf = "0000:3b:00.0"});
        t.addNetdev({.name = "ens1f0np0", .bdf = "0000:3b:00.0", .dev_port = "0"});
        t.addPort("mlx5_0", {.gid_netdevs = {"ens1f0np0", "ens1f0np0", "", "ens1f0np0.100"},
                             .counters = T::pmaCounters()});
        // mlx5_1: a PF whose port has no GID attributes: device/net gives the netdev.
        t.addPciFunction({.bdf = "0000:3b:00.1", .numa_node = 0});
        t.addIbDevice({.name = "mlx5_1", .bdf = "0000:3b:00.1"});
        t.addNetdev({.name = "ens1f1np1",
                     .bdf = "0000:3b:00.1",
                     .operstate = "down",
                     .carrier = "0",
                     .dev_port = "0",
                     .phys_port_name = "p1"});
        // A switchdev representor under the same function is not the port's netdev.
        t.addNetdev({.name = "pf1vf0", .bdf = "0000:3b:00.1", .phys_port_name = "pf1vf0"});
        t.addPort("mlx5_1", {.state = "1: DOWN", .phys_state = "3: Disabled"});
        // mlx5_2: a VF of mlx5_0.
        t.addPciFunction({.bdf = "0000:3b:00.2", .numa_node = 0, .physfn = "0000:3b:00.0"});
        t.addIbDevice({.name = "mlx5_2", .bdf = "0000:3b:00.2"});
        t.addNetdev({.name = "ens1f0v0", .bdf = "0000:3b:00.2"});
        t.addPort("mlx5_2", {.gid_netdevs = {"ens1f0v0"}});
        // mlx5_bond_0: RoCE LAG over both PFs of a BlueField-3; parent is PF0, GIDs name the bond.
        t.addPciFunction({.bdf = "0000:86:00.0", .numa_node = 1});
        t.addPciFunction({.bdf = "0000:86:00.1", .numa_node = 1});
        t.addIbDevice({.name = "mlx5_bond_0", .bdf = "0000:86:00.0", .hca_type = "MT41692"});
        t.addNetdev({.name = "ens5f0np0", .bdf = "0000:86:00.0"});
        t.addNetdev({.name = "ens5f1np1", .bdf = "0000:86:00.1"});
        t.addBond("bond0", {"ens5f0np0", "ens5f1np1"});
        t.addPort("mlx5_bond_0",
                  {.rate = "200 Gb/sec (2X NDR)", .gid_netdevs = {"bond0", "bond0"}});
        // mlx5_4: a PF enslaved to an active-backup bond without RoCE LAG.
        t.addPciFunction({.bdf = "0000:af:00.0", .numa_node = 1});
        t.addIbDevice({.name = "mlx5_4", .bdf = "0000:af:00.0"});
        t.addNetdev({.name = "ens6f0np0", .bdf = "0000:af:00.0"});
        t.addBond("bond1", {"ens6f0np0"});
        t.addPort("mlx5_4", {.gid_netdevs = {"ens6f0np0", "bond1"}});
        // mlx4_0: two InfiniBand ports on one PCI function, IPoIB netdevs told apart by dev_port.
        t.addPciFunction({.bdf = "0000:05:00.0", .driver = "mlx4_core", .numa_node = -1});
        t.addIbDevice({.name = "mlx4_0", .bdf = "0000:05:00.0", .hca_type = "MT4099"});
        t.addNetdev({.name = "ib0", .bdf = "0000:05:00.0", .dev_port = "0", .dev_id = "0x0"});
        t.addNetdev({.name = "ib1", .bdf = "0000:05:00.0", .dev_port = "1", .dev_id = "0x0"});
        for (uint32_t n : {1U, 2U})
            t.addPort("mlx4_0",
                      {.num = n, .link_layer = "InfiniBand", .rate = "40 Gb/sec (4X QDR)"});
        // rxe0: soft RoCE, a virtual device with no PCI function.
        t.addIbDevice({.name = "rxe0", .fw_ver = "", .board_id = "", .hca_type = ""});
        t.addPort("rxe0", {.rate = "10 Gb/sec (1X QDR)"});
        // A netdev no RDMA port uses.
        t.addNetdev({.name = "eno1"});
    }
};

} // namespace

TEST_F(InventoryTest, H100NodeFixture)
{
    auto inv = discoverInventory(fixtureRoot(kFixtures / "gpud/sys-class-infiniband-h100.0"));
    EXPECT_EQ(names(inv), (Strings{"mlx5_0", "mlx5_1", "mlx5_4", "mlx5_5", "mlx5_6", "mlx5_7",
                                   "mlx5_8", "mlx5_9", "mlx5_bond_0"}));
    const auto& d = dev(inv, "mlx5_0");
    EXPECT_EQ(d.fw_ver, "28.41.1000");
    EXPECT_EQ(d.hca_type, "MT4129");
    EXPECT_EQ(d.board_id, "MT_0000000838");
    EXPECT_EQ(d.pci_address, ""); // the fixture has no device link
    EXPECT_EQ(d.driver, "");
    EXPECT_FALSE(d.numa_node);
    EXPECT_EQ(d.function, DeviceFunction::Physical);
    ASSERT_EQ(d.ports.size(), 1U);
    EXPECT_EQ(d.ports[0].num, 1U);
    EXPECT_EQ(d.ports[0].state, 4);
    EXPECT_EQ(d.ports[0].state_name, "ACTIVE");
    EXPECT_EQ(d.ports[0].phys_state, 5);
    EXPECT_EQ(d.ports[0].phys_state_name, "LinkUp");
    EXPECT_EQ(d.ports[0].link_layer, "InfiniBand");
    EXPECT_EQ(d.ports[0].rate, "400 Gb/sec (4X NDR)");
    EXPECT_DOUBLE_EQ(*d.ports[0].rate_gbps, 400);
    EXPECT_TRUE(d.ports[0].netdevs.empty());
    const auto& lag = dev(inv, "mlx5_bond_0");
    EXPECT_EQ(lag.function, DeviceFunction::Lag);
    EXPECT_EQ(lag.hca_type, "MT41692");
    EXPECT_EQ(lag.bond_master, ""); // no /sys/class/net in the fixture
    ASSERT_EQ(lag.ports.size(), 1U);
    EXPECT_EQ(lag.ports[0].link_layer, "Ethernet");
    EXPECT_DOUBLE_EQ(*lag.ports[0].rate_gbps, 200);
}

TEST_F(InventoryTest, ProcfsFixtureWithThreeVendorsAndANetdev)
{
    auto paths = fixtureRoot(kFixtures / "procfs/fixtures/sys/class/infiniband",
                             kFixtures / "procfs/fixtures/sys/class/net");
    auto inv = discoverInventory(paths);
    EXPECT_EQ(names(inv), (Strings{"hfi1_0", "mlx4_0", "mlx5_0"}));
    const auto& hfi = dev(inv, "hfi1_0");
    EXPECT_EQ(hfi.hca_type, ""); // hfi1 has none
    EXPECT_EQ(hfi.fw_ver, "1.27.0");
    EXPECT_DOUBLE_EQ(*hfi.ports.at(0).rate_gbps, 100);
    const auto& mlx4 = dev(inv, "mlx4_0");
    ASSERT_EQ(mlx4.ports.size(), 2U);
    EXPECT_EQ(mlx4.ports[1].num, 2U);
    EXPECT_DOUBLE_EQ(*mlx4.ports[1].rate_gbps, 40);
    const auto& mlx5 = dev(inv, "mlx5_0");
    EXPECT_EQ(mlx5.node_guid, "0a7f:bc12:45ef:d23b");
    // phys_state reads "4: ACTIVE" here, a name the kernel never prints: the number counts.
    EXPECT_EQ(mlx5.ports.at(0).phys_state, 4);
    EXPECT_EQ(mlx5.ports.at(0).phys_state_name, "ACTIVE");

    auto eth0 = readNetdevState(paths, "eth0");
    EXPECT_EQ(eth0.operstate, "up");
    EXPECT_EQ(eth0.carrier, true);
    EXPECT_EQ(eth0.ifindex, 2);
    EXPECT_TRUE(NetdevStateReader(paths).read(inv).empty()); // no RDMA port names eth0
}

TEST_F(InventoryTest, NodeExporterFixtureWithNoPmaDeviceAndPartialPorts)
{
    auto inv = discoverInventory(fixtureRoot(kFixtures / "node_exporter/sys/class/infiniband"));
    EXPECT_EQ(names(inv), (Strings{"i40iw0", "mlx4_0"}));
    const auto& i40 = dev(inv, "i40iw0");
    EXPECT_EQ(i40.board_id, "I40IW Board ID");
    EXPECT_EQ(i40.ports.at(0).link_layer, "InfiniBand");
    EXPECT_DOUBLE_EQ(*i40.ports.at(0).rate_gbps, 10); // "10 Gb/sec (4X)"
    EXPECT_EQ(dev(inv, "mlx4_0").ports.size(), 2U);
}

TEST_F(InventoryTest, EveryRoleInTheKernelLayout)
{
    test::SysfsTree t(dir_);
    buildNode(t);
    auto inv = discoverInventory(HostPaths(dir_));
    EXPECT_EQ(names(inv),
              (Strings{"mlx4_0", "mlx5_0", "mlx5_1", "mlx5_2", "mlx5_4", "mlx5_bond_0", "rxe0"}));

    const auto& pf = dev(inv, "mlx5_0");
    EXPECT_EQ(pf.function, DeviceFunction::Physical);
    EXPECT_EQ(pf.sysfs_path, (dir_ / "sys/class/infiniband/mlx5_0").string());
    EXPECT_EQ(pf.pci_address, "0000:3b:00.0");
    EXPECT_EQ(pf.pci_path, t.path(test::SysfsTree::pciDir("0000:3b:00.0")).string());
    EXPECT_EQ(pf.driver, "mlx5_core");
    EXPECT_EQ(pf.numa_node, 0);
    EXPECT_EQ(pf.fw_ver, "28.41.1000");
    EXPECT_EQ(pf.node_guid, "a088:c203:0038:b8e6");
    EXPECT_EQ(pf.bond_master, "");
    EXPECT_EQ(pf.ports.at(0).netdevs, (Strings{"ens1f0np0", "ens1f0np0.100"})); // GID order

    const auto& no_gids = dev(inv, "mlx5_1");
    EXPECT_EQ(no_gids.ports.at(0).netdevs, Strings{"ens1f1np1"}); // device/net, no representor
    EXPECT_EQ(no_gids.ports.at(0).state, 1);
    EXPECT_EQ(no_gids.ports.at(0).phys_state_name, "Disabled");

    const auto& vf = dev(inv, "mlx5_2");
    EXPECT_EQ(vf.function, DeviceFunction::VirtualFunction);
    EXPECT_EQ(vf.pci_address, "0000:3b:00.2");
    EXPECT_EQ(vf.ports.at(0).netdevs, Strings{"ens1f0v0"});

    const auto& lag = dev(inv, "mlx5_bond_0");
    EXPECT_EQ(lag.function, DeviceFunction::Lag);
    EXPECT_EQ(lag.bond_master, "bond0");
    EXPECT_EQ(lag.pci_address, "0000:86:00.0"); // PF0
    EXPECT_EQ(lag.numa_node, 1);
    EXPECT_EQ(lag.ports.at(0).netdevs, Strings{"bond0"});

    const auto& member = dev(inv, "mlx5_4");
    EXPECT_EQ(member.function, DeviceFunction::BondMember);
    EXPECT_EQ(member.bond_master, "bond1");

    const auto& mlx4 = dev(inv, "mlx4_0");
    EXPECT_EQ(mlx4.driver, "mlx4_core");
    EXPECT_FALSE(mlx4.numa_node); // -1: no NUMA affinity
    ASSERT_EQ(mlx4.ports.size(), 2U);
    EXPECT_EQ(mlx4.ports[0].netdevs, Strings{"ib0"});
    EXPECT_EQ(mlx4.ports[1].netdevs, Strings{"ib1"});
    EXPECT_EQ(mlx4.ports[1].link_layer, "InfiniBand");

    const auto& rxe = dev(inv, "rxe0");
    EXPECT_EQ(rxe.pci_address, "");
    EXPECT_EQ(rxe.driver, "");
    EXPECT_EQ(rxe.fw_ver, "");
    EXPECT_EQ(rxe.function, DeviceFunction::Physical);
    EXPECT_EQ(rxe.ports.size(), 1U);
}

TEST_F(InventoryTest, LagWithoutGidAttributesFindsTheBondThroughPf0sNetdev)
{
    test::SysfsTree t(dir_);
    t.addPciFunction({.bdf = "0000:86:00.0"});
    t.addIbDevice({.name = "mlx5_bond_0", .bdf = "0000:86:00.0"});
    t.addNetdev({.name = "ens5f0np0", .bdf = "0000:86:00.0"});
    t.addNetdev({.name = "ens5f1np1"});
    t.addBond("bond0", {"ens5f0np0", "ens5f1np1"});
    t.addPort("mlx5_bond_0", {});
    auto inv = discoverInventory(HostPaths(dir_));
    const auto& lag = dev(inv, "mlx5_bond_0");
    EXPECT_EQ(lag.function, DeviceFunction::Lag);
    EXPECT_EQ(lag.ports.at(0).netdevs, Strings{"ens5f0np0"});
    EXPECT_EQ(lag.bond_master, "bond0");
}

TEST_F(InventoryTest, AMasterThatIsNotABondDoesNotMakeABondMember)
{
    test::SysfsTree t(dir_);
    t.addPciFunction({.bdf = "0000:3b:00.0"});
    t.addIbDevice({.name = "mlx5_0", .bdf = "0000:3b:00.0"});
    t.addNetdev({.name = "ens1f0np0", .bdf = "0000:3b:00.0"});
    t.addNetdev({.name = "br0"}); // a bridge: no bonding/
    t.link(t.netDir("ens1f0np0") + "/master", t.netDir("br0"));
    t.addPort("mlx5_0", {.gid_netdevs = {"ens1f0np0"}});
    auto inv = discoverInventory(HostPaths(dir_));
    EXPECT_EQ(dev(inv, "mlx5_0").function, DeviceFunction::Physical);
    EXPECT_EQ(dev(inv, "mlx5_0").bond_master, "");
}

TEST_F(InventoryTest, BrokenValuesAreAbsentAndEverythingElseStillWorks)
{
    test::SysfsTree t(dir_);
    buildNode(t);
    auto d0 = t.ibDir("mlx5_0");
    t.write(d0 + "/ports/1/state", "garbage");
    t.write(d0 + "/ports/1/phys_state", "");
    std::filesystem::remove(t.path(d0 + "/ports/1/rate"));
    t.makeUnreadable(d0 + "/fw_ver");                    // EISDIR on read
    t.makeUnreadable(d0 + "/ports/1/gid_attrs/ndevs/0"); // one GID unreadable
    t.write(test::SysfsTree::pciDir("0000:3b:00.0") + "/numa_node", "N/A (no PMA)");
    t.write(d0 + "/board_id", "   ");
    // mlx5_1's ports/ is a file: it has no ports, but is still listed.
    std::filesystem::remove_all(t.path(t.ibDir("mlx5_1") + "/ports"));
    t.write(t.ibDir("mlx5_1") + "/ports", "not a directory");
    // A class entry whose device is gone (unregistering right now).
    std::filesystem::create_symlink("../../devices/nowhere/infiniband/mlx5_9",
                                    dir_ / "sys/class/infiniband/mlx5_9");

    auto inv = discoverInventory(HostPaths(dir_));
    EXPECT_EQ(names(inv),
              (Strings{"mlx4_0", "mlx5_0", "mlx5_1", "mlx5_2", "mlx5_4", "mlx5_bond_0", "rxe0"}));
    const auto& d = dev(inv, "mlx5_0");
    EXPECT_FALSE(d.ports.at(0).state);
    EXPECT_EQ(d.ports[0].state_name, "");
    EXPECT_FALSE(d.ports[0].phys_state);
    EXPECT_EQ(d.ports[0].rate, "");
    EXPECT_FALSE(d.ports[0].rate_gbps);
    EXPECT_EQ(d.ports[0].link_layer, "Ethernet");
    EXPECT_EQ(d.ports[0].netdevs, (Strings{"ens1f0np0", "ens1f0np0.100"})); // GID 1 still names it
    EXPECT_EQ(d.fw_ver, "");
    EXPECT_EQ(d.board_id, "");
    EXPECT_EQ(d.hca_type, "MT4129");
    EXPECT_FALSE(d.numa_node);
    EXPECT_EQ(d.driver, "mlx5_core");
    EXPECT_EQ(d.pci_address, "0000:3b:00.0");
    EXPECT_TRUE(dev(inv, "mlx5_1").ports.empty());
    EXPECT_EQ(dev(inv, "mlx5_1").fw_ver, "28.41.1000");
    EXPECT_EQ(dev(inv, "mlx5_bond_0").bond_master, "bond0");
}

TEST_F(InventoryTest, NoRdmaDevicesAtAll)
{
    EXPECT_TRUE(discoverInventory(HostPaths(dir_)).devices.empty());
    EXPECT_TRUE(discoverInventory(HostPaths(dir_ / "does-not-exist")).devices.empty());
}

TEST_F(InventoryTest, NetdevStatesOfEveryRdmaNetdevAndBond)
{
    test::SysfsTree t(dir_);
    buildNode(t);
    t.makeUnreadable(t.netDir("ens5f1np1") + "/carrier"); // what EINVAL (admin down) looks like
    HostPaths paths(dir_);
    auto inv = discoverInventory(paths);
    auto states = NetdevStateReader(paths).read(inv);

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

    auto slave = readNetdevState(paths, "ens5f1np1");
    EXPECT_FALSE(slave.carrier);
    EXPECT_EQ(slave.operstate, "up");
    auto gone = readNetdevState(paths, "nosuch0");
    EXPECT_EQ(gone.operstate, "unknown");
    EXPECT_FALSE(gone.carrier);
    EXPECT_FALSE(gone.ifindex);
}

TEST_F(InventoryTest, ReaderSeesStateChangesAtOnceAndDeviceChangesWithAFullWalk)
{
    test::SysfsTree t(dir_);
    buildNode(t);
    InventoryReader reader(HostPaths(dir_), 1000);
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
    auto inv = discoverInventory(paths);
    auto up = t.path(t.netDir("ens1f0np0"));
    auto down = t.path(t.netDir("ens1f1np1"));
    settle(up);
    settle(down);
    NetdevStateReader reader(paths);
    auto first = reader.read(inv);
    for (const auto& [name, st] : first) // the same as reading each file afresh
        EXPECT_EQ(st, readNetdevState(paths, name)) << name;
    EXPECT_EQ(first.at("ens1f0np0").operstate, "up");

    rewrite(up / "operstate", "lowerlayerdown"); // in place: read again through the kept file
    rewrite(up / "carrier", "0");
    settle(up);
    auto second = reader.read(inv);
    EXPECT_EQ(second.at("ens1f0np0").operstate, "lowerlayerdown");
    EXPECT_EQ(second.at("ens1f0np0").carrier, false);
    EXPECT_EQ(second.at("ens1f1np1").operstate, "down");

    // The two interfaces swap names (udev at boot): each name reads the interface now there.
    auto aside = up.parent_path() / "swap-aside";
    fs::rename(up, aside);
    fs::rename(down, up);
    fs::rename(aside, down);
    settle(up);
    settle(down);
    auto third = reader.read(inv);
    EXPECT_EQ(third.at("ens1f0np0").operstate, "down");
    EXPECT_EQ(third.at("ens1f1np1").operstate, "lowerlayerdown");

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
    auto inv = discoverInventory(paths);
    auto states = NetdevStateReader(paths).read(inv); // the directories not yet settled: afresh
    for (const auto& [name, st] : states) {
        settle(t.path(t.netDir(name)));
        if (fs::is_symlink(dir_ / "sys/class/net" / name))
            settle(fs::canonical(dir_ / "sys/class/net" / name));
    }
    size_t before = openDescriptors();
    NetdevStateReader reader(paths);
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
    InventoryReader reader(HostPaths(dir_), 1000);
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
    KeptDirs dirs;
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
