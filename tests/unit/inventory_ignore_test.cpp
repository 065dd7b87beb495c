// [daemon] IgnoreDevices=: the devices it names, by name, glob or PCI address, are left out of the
// inventory and listed as ignored, and nothing under them (their PCI functions, their netdevs)
// is opened by discovery, the GPU scan included; the others are read as before.
#include "inventory/ignore_list.hpp"
#include "support/inventory_fixture.hpp"
#include "support/open_watch.hpp"

#include <algorithm>

#include <gtest/gtest.h>

using namespace nicd;
using namespace nicd::test;

namespace {

Strings ignoredNames(const Inventory& inv)
{
    Strings out;
    for (const auto& ig : inv.ignored)
        out.push_back(ig.ibdev + " " + ig.pci_address + " " + ig.matched);
    return out;
}

} // namespace

TEST(IgnoreList, NamesGlobsAndPciAddresses)
{
    inventory::IgnoreList l({"mlx5_1*", "mlx5_[79]", "ibp1s0", "0000:3b:00.1"});
    EXPECT_EQ(l.matchName("mlx5_1"), "mlx5_1*");
    EXPECT_EQ(l.matchName("mlx5_12"), "mlx5_1*");
    EXPECT_EQ(l.matchName("mlx5_9"), "mlx5_[79]");
    EXPECT_EQ(l.matchName("ibp1s0"), "ibp1s0");
    EXPECT_FALSE(l.matchName("mlx5_0"));
    EXPECT_FALSE(l.matchName("mlx5_8"));
    EXPECT_FALSE(l.matchName("0000:3b:00.1")) << "a PCI address is not a name";
    EXPECT_TRUE(l.hasPciAddresses());
    EXPECT_EQ(l.matchPciAddress("0000:3b:00.1"), "0000:3b:00.1");
    EXPECT_FALSE(l.matchPciAddress("0000:3b:00.0"));
    EXPECT_FALSE(l.matchPciAddress(""));
    EXPECT_TRUE(inventory::IgnoreList().empty());
    EXPECT_FALSE(inventory::IgnoreList({"mlx5_0"}).hasPciAddresses());
}

TEST_F(InventoryTest, IgnoredDevicesAreLeftOutAndListedWithWhatNamedThem)
{
    SysfsTree t(dir_);
    buildNode(t);
    auto inv = inventory::discoverInventory(
        HostPaths(dir_),
        inventory::IgnoreList({"mlx5_1", "mlx5_bond_*", "0000:3b:00.2", "0000:05:00.0"}));
    EXPECT_EQ(names(inv), (Strings{"mlx5_0", "mlx5_4", "rxe0"}));
    EXPECT_EQ(
        ignoredNames(inv),
        (Strings{"mlx4_0 0000:05:00.0 0000:05:00.0", "mlx5_1 0000:3b:00.1 mlx5_1",
                 "mlx5_2 0000:3b:00.2 0000:3b:00.2", "mlx5_bond_0 0000:86:00.0 mlx5_bond_*"}));
    EXPECT_TRUE(inv.ignoresFunction("0000:3b:00.1"));
    EXPECT_FALSE(inv.ignoresFunction("0000:3b:00.0"));
    EXPECT_FALSE(inv.ignoresFunction(""));
    // What the others are is unchanged: mlx5_0 still has its VF's PF role, mlx5_4 its bond.
    EXPECT_EQ(dev(inv, "mlx5_0").ports.at(0).netdevs, (Strings{"ens1f0np0", "ens1f0np0.100"}));
    EXPECT_EQ(dev(inv, "mlx5_4").function, DeviceFunction::BondMember);
    // A device without a PCI function is only ignored by its name.
    auto by_pci =
        inventory::discoverInventory(HostPaths(dir_), inventory::IgnoreList({"0000:3b:00.0"}));
    EXPECT_EQ(ignoredNames(by_pci), Strings{"mlx5_0 0000:3b:00.0 0000:3b:00.0"});
    EXPECT_TRUE(by_pci.find("rxe0"));
}

// Every directory of an ignored device's PCI function (its infiniband/ and net/ trees included),
// and of a LAG's second PF (its member netdev) and bond, is watched while discovery and the GPU
// scan run: nothing there is opened. The same watch on a device that is read sees its files
// opened.
TEST_F(InventoryTest, NothingUnderAnIgnoredDeviceIsOpened)
{
    SysfsTree t(dir_);
    buildNode(t);
    // The PCI bus as the GPU scan walks it, a GPU among the functions.
    t.addPciFunction({.bdf = "0000:1b:00.0", .driver = "nvidia"});
    t.write(SysfsTree::pciDir("0000:1b:00.0") + "/vendor", "0x10de");
    t.write(SysfsTree::pciDir("0000:1b:00.0") + "/class", "0x030200");
    for (const char* bdf : {"0000:3b:00.0", "0000:3b:00.1", "0000:86:00.0", "0000:1b:00.0"})
        t.link(std::string("/sys/bus/pci/devices/") + bdf, SysfsTree::pciDir(bdf));

    OpenWatch ignored(
        {t.path(SysfsTree::pciDir("0000:3b:00.1")), t.path(SysfsTree::pciDir("0000:86:00.0")),
         t.path(SysfsTree::pciDir("0000:86:00.1")), t.path("/sys/devices/virtual/net/bond0")});
    OpenWatch read({t.path(SysfsTree::pciDir("0000:3b:00.0"))});
    auto inv = inventory::discoverInventory(HostPaths(dir_),
                                            inventory::IgnoreList({"mlx5_1", "0000:86:00.0"}));
    EXPECT_EQ(ignoredNames(inv),
              (Strings{"mlx5_1 0000:3b:00.1 mlx5_1", "mlx5_bond_0 0000:86:00.0 0000:86:00.0"}));
    EXPECT_EQ(ignored.opened(), Strings{}) << "opened under an ignored device";
    auto seen = read.opened();
    EXPECT_NE(std::find_if(seen.begin(), seen.end(),
                           [](const std::string& p) { return p.ends_with("mlx5_0/fw_ver"); }),
              seen.end())
        << "the watch sees a device that is read";
    ASSERT_EQ(inv.gpus.size(), 1U) << "the GPU scan still runs";
    EXPECT_EQ(inv.gpus[0].pci_address, "0000:1b:00.0");
}

// The reader applies a new list at its next read (a reload), whatever is cached.
TEST_F(InventoryTest, ANewListTakesEffectAtTheNextRead)
{
    SysfsTree t(dir_);
    buildNode(t);
    inventory::InventoryReader reader{HostPaths(dir_)};
    EXPECT_TRUE(reader.read().find("mlx5_1"));
    reader.setIgnore(inventory::IgnoreList({"mlx5_1"}));
    auto inv = reader.read();
    EXPECT_FALSE(inv.find("mlx5_1"));
    ASSERT_EQ(inv.ignored.size(), 1U);
    EXPECT_EQ(inv.ignored[0].ibdev, "mlx5_1");
    reader.setIgnore(inventory::IgnoreList());
    EXPECT_TRUE(reader.read().find("mlx5_1"));
}
