// A RoCE LAG takes over its PFs: when the bond forms, their RDMA devices go and one LAG device
// (mlx5_bond_0) comes on the first PF's address. The PCI functions of the LAG's bond slaves count
// as present, within a boot and across boots: PF1, seen before the bond formed, is never
// device_missing while the LAG holds it, and stays remembered.
#include "health/device_identity.hpp"
#include "inventory/sysfs_inventory.hpp"
#include "sim.hpp"
#include "support/sim_tree.hpp"

#include <gtest/gtest.h>

using namespace nicd;
using namespace nicd::health;

namespace {

const std::string kPf0 = "0000:ab:00.0";
const std::string kPf1 = "0000:ab:00.1";

Device pf(const std::string& name, const std::string& pci)
{
    Device d;
    d.ibdev = name;
    d.pci_address = pci;
    return d;
}

// mlx5_bond_0 on PF0, over both PFs; `lag` false: no plugin said it is a LAG (a bond member).
Inventory bonded(bool lag = true, std::vector<std::string> functions = {kPf0, kPf1})
{
    Device d = pf("mlx5_bond_0", kPf0);
    d.function = lag ? DeviceFunction::Lag : DeviceFunction::BondMember;
    d.bond_master = "bond0";
    d.bond_functions = std::move(functions);
    Inventory inv;
    inv.devices = {d};
    return inv;
}

Inventory unbonded()
{
    Inventory inv;
    inv.devices = {pf("mlx5_0", kPf0), pf("mlx5_1", kPf1)};
    return inv;
}

} // namespace

TEST(RoceLagIdentity, ThePfsOfALagAreNotMissingWithinABoot)
{
    KnownDevices k;
    k.update(unbonded());
    const auto lag = bonded();
    EXPECT_EQ(k.renames(lag), (std::vector<DeviceRename>{{"mlx5_0", "mlx5_bond_0", kPf0, false}}));
    k.rename("mlx5_0", "mlx5_bond_0");
    EXPECT_TRUE(k.missing(lag).empty()) << "PF1 is in the LAG";
    k.update(lag);
    EXPECT_TRUE(k.missing(lag).empty());
    EXPECT_EQ(k.devices(), (std::vector<KnownDevice>{{kPf0, "mlx5_bond_0"}, {kPf1, "mlx5_1"}}))
        << "PF1 stays known under its last name";

    // The bond released again: both PFs back, nothing missing, nothing new.
    EXPECT_TRUE(k.missing(unbonded()).empty());

    // Only a LAG device holds its PFs: a bond member does not vouch for another function, and a
    // LAG without PF1 among its slaves leaves it missing.
    EXPECT_EQ(k.missing(bonded(false)), (std::vector<KnownDevice>{{kPf1, "mlx5_1"}}));
    EXPECT_EQ(k.missing(bonded(true, {kPf0})), (std::vector<KnownDevice>{{kPf1, "mlx5_1"}}));
}

TEST(RoceLagIdentity, ThePfsOfALagAreNotMissingAcrossBoots)
{
    KnownDevices k;
    k.update(unbonded());
    k.rename("mlx5_0", "mlx5_bond_0");
    k.update(bonded());
    auto next = KnownDevices::fromEarlierBoot(k.toJson());
    ASSERT_EQ(next.devices().size(), 2U);
    EXPECT_TRUE(next.devices()[1].earlier_boot);
    EXPECT_TRUE(next.missing(bonded()).empty()) << "the bond formed again at this boot";
    next.update(bonded());
    EXPECT_EQ(next.devices(), (std::vector<KnownDevice>{{kPf0, "mlx5_bond_0"}, {kPf1, "mlx5_1"}}))
        << "seen this boot, in the LAG: no longer of an earlier boot";

    auto unbonded_boot = KnownDevices::fromEarlierBoot(k.toJson());
    EXPECT_TRUE(unbonded_boot.missing(unbonded()).empty()) << "no bond at this boot: both PFs";
}

// The inventory reads the bond's slaves' PCI functions for the device on the bond: nicd-sim's
// node has mlx5_bond_0 over bond0 (ens5f0np0 on 0000:ab:00.0, ens5f1np1 on 0000:ab:00.1).
using RoceLagInventory = test::SimDirTest;

TEST_F(RoceLagInventory, TheLagDeviceKnowsItsBondsPciFunctions)
{
    sim::create(dir_, {});
    auto inv = inventory::discoverInventory(HostPaths(dir_));
    const auto* lag = inv.find("mlx5_bond_0");
    ASSERT_NE(lag, nullptr);
    EXPECT_EQ(lag->bond_master, "bond0");
    EXPECT_EQ(lag->bond_functions, (std::vector<std::string>{kPf0, kPf1}));
    const auto* pf = inv.find("mlx5_0");
    ASSERT_NE(pf, nullptr);
    EXPECT_TRUE(pf->bond_functions.empty());
}
