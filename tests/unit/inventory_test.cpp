// Discovery on real sysfs trees (fixtures from public projects) and on trees built in the kernel's
// layout: identity, PCI function, roles (PF, VF, LAG, bond member), ports, netdevs, and values
// that are missing, unreadable or garbage (the link state readers: inventory_state_test.cpp).
#include "support/inventory_fixture.hpp"

#include <gtest/gtest.h>

using namespace nicd;
using namespace nicd::test;

TEST_F(InventoryTest, H100NodeFixture)
{
    auto inv =
        inventory::discoverInventory(fixtureRoot(kFixtures / "gpud/sys-class-infiniband-h100.0"));
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
    EXPECT_EQ(lag.function, DeviceFunction::Physical) << "a LAG is its plugin's word";
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
    auto inv = inventory::discoverInventory(paths);
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

    auto eth0 = inventory::readNetdevState(paths, "eth0");
    EXPECT_EQ(eth0.operstate, "up");
    EXPECT_EQ(eth0.carrier, true);
    EXPECT_EQ(eth0.ifindex, 2);
    EXPECT_TRUE(inventory::NetdevStateReader(paths).read(inv).empty()); // no RDMA port names eth0
}

TEST_F(InventoryTest, NodeExporterFixtureWithNoPmaDeviceAndPartialPorts)
{
    auto inv =
        inventory::discoverInventory(fixtureRoot(kFixtures / "node_exporter/sys/class/infiniband"));
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
    auto inv = inventory::discoverInventory(HostPaths(dir_));
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

    // The RoCE LAG device carries the bond's traffic; that it is the LAG and not a member is its
    // plugin's word (PluginManager::assign, plugin_traits_test.cpp).
    const auto& lag = dev(inv, "mlx5_bond_0");
    EXPECT_EQ(lag.function, DeviceFunction::BondMember);
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
    auto inv = inventory::discoverInventory(HostPaths(dir_));
    const auto& lag = dev(inv, "mlx5_bond_0");
    EXPECT_EQ(lag.function, DeviceFunction::BondMember); // a LAG once its plugin says so
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
    auto inv = inventory::discoverInventory(HostPaths(dir_));
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

    auto inv = inventory::discoverInventory(HostPaths(dir_));
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
    EXPECT_TRUE(inventory::discoverInventory(HostPaths(dir_)).devices.empty());
    EXPECT_TRUE(inventory::discoverInventory(HostPaths(dir_ / "does-not-exist")).devices.empty());
}
