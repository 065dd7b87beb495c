// Discovery on real sysfs trees (fixtures from public projects) and on a simulated node in the
// kernel's layout: identity, roles, ports, netdevs, and values that are missing or garbage.
#include "inventory/inventory_reader.hpp"
#include "inventory/netdev_state.hpp"
#include "inventory/sysfs_inventory.hpp"
#include "inventory/sysfs_values.hpp"
#include "sim.hpp"
#include "support/temp_dir.hpp"

#include <fstream>

#include <gtest/gtest.h>

using namespace nicd;
namespace fs = std::filesystem;

namespace {

class InventoryTest : public test::TempDirTest {
protected:
    // A root whose sys/class/infiniband is a fixture directory.
    HostPaths fixtureRoot(const fs::path& class_dir)
    {
        fs::create_directories(dir_ / "sys/class");
        fs::create_symlink(class_dir, dir_ / "sys/class/infiniband");
        return HostPaths(dir_);
    }
    const Device& dev(const Inventory& inv, const std::string& name)
    {
        auto* d = inv.find(name);
        EXPECT_NE(d, nullptr) << name;
        static Device none;
        return d ? *d : none;
    }
};

} // namespace

TEST(SysfsValues, NumberedStates)
{
    auto s = sysfs::parseNumberedState("4: ACTIVE\n");
    ASSERT_TRUE(s);
    EXPECT_EQ(s->number, 4);
    EXPECT_EQ(s->name, "ACTIVE");
    EXPECT_EQ(sysfs::parseNumberedState("5: LinkUp")->name, "LinkUp");
    EXPECT_EQ(sysfs::parseNumberedState("1")->number, 1);
    EXPECT_FALSE(sysfs::parseNumberedState("ACTIVE"));
    EXPECT_FALSE(sysfs::parseNumberedState(""));
    EXPECT_FALSE(sysfs::parseNumberedState("4x: ACTIVE"));
}

TEST(SysfsValues, Rates)
{
    EXPECT_DOUBLE_EQ(*sysfs::parseRateGbps("400 Gb/sec (4X NDR)"), 400);
    EXPECT_DOUBLE_EQ(*sysfs::parseRateGbps("2.5 Gb/sec (1X SDR)"), 2.5);
    EXPECT_DOUBLE_EQ(*sysfs::parseRateGbps("25 Gb/sec (1X EDR)\n"), 25);
    EXPECT_FALSE(sysfs::parseRateGbps("fast"));
    EXPECT_FALSE(sysfs::parseRateGbps("400"));
}

TEST(SysfsValues, Counters)
{
    EXPECT_EQ(sysfs::parseCounter("123\n"), 123U);
    EXPECT_EQ(sysfs::parseCounter("18446744073709551615"), UINT64_MAX);
    EXPECT_FALSE(sysfs::parseCounter("18446744073709551616"));
    EXPECT_FALSE(sysfs::parseCounter("N/A (no PMA)"));
    EXPECT_FALSE(sysfs::parseCounter("-1"));
    EXPECT_FALSE(sysfs::parseCounter(""));
    EXPECT_FALSE(sysfs::parseCounter("12abc"));
}

TEST(SysfsValues, PciAddresses)
{
    EXPECT_TRUE(sysfs::isPciAddress("0000:3b:00.0"));
    EXPECT_FALSE(sysfs::isPciAddress("pci0000:00"));
    EXPECT_FALSE(sysfs::isPciAddress("0000:3b:00"));
}

TEST_F(InventoryTest, H100NodeFixture)
{
    auto inv = discoverInventory(
        fixtureRoot(fs::path(NICD_SHARED_DIR) / "fixtures/gpud/sys-class-infiniband-h100.0"));
    ASSERT_EQ(inv.devices.size(), 9U);
    EXPECT_EQ(inv.devices.front().ibdev, "mlx5_0"); // sorted
    const auto& d = dev(inv, "mlx5_0");
    EXPECT_EQ(d.fw_ver, "28.41.1000");
    EXPECT_EQ(d.hca_type, "MT4129");
    EXPECT_EQ(d.board_id, "MT_0000000838");
    EXPECT_EQ(d.pci_address, ""); // the fixture has no device link
    ASSERT_EQ(d.ports.size(), 1U);
    EXPECT_EQ(d.ports[0].state, 4);
    EXPECT_EQ(d.ports[0].state_name, "ACTIVE");
    EXPECT_EQ(d.ports[0].phys_state, 5);
    EXPECT_EQ(d.ports[0].link_layer, "InfiniBand");
    EXPECT_DOUBLE_EQ(*d.ports[0].rate_gbps, 400);
    const auto& lag = dev(inv, "mlx5_bond_0");
    EXPECT_EQ(lag.role, DeviceRole::Lag);
    EXPECT_EQ(lag.ports[0].link_layer, "Ethernet");
    EXPECT_DOUBLE_EQ(*lag.ports[0].rate_gbps, 200);
}

TEST_F(InventoryTest, NodeExporterFixtureWithNoPmaAndPartialPorts)
{
    auto inv = discoverInventory(
        fixtureRoot(fs::path(NICD_SHARED_DIR) / "fixtures/node_exporter/sys/class/infiniband"));
    const auto& i40 = dev(inv, "i40iw0");
    EXPECT_EQ(i40.board_id, "I40IW Board ID");
    const auto& mlx4 = dev(inv, "mlx4_0");
    EXPECT_EQ(mlx4.ports.size(), 2U);
}

TEST_F(InventoryTest, SimulatedNodeInTheKernelLayout)
{
    sim::create(dir_, {});
    HostPaths paths(dir_);
    auto inv = discoverInventory(paths);
    ASSERT_EQ(inv.devices.size(), 8U);

    const auto& pf = dev(inv, "mlx5_0");
    EXPECT_EQ(pf.pci_address, "0000:1a:00.0");
    EXPECT_EQ(pf.driver, "mlx5_core");
    EXPECT_EQ(pf.numa_node, 0);
    EXPECT_EQ(pf.role, DeviceRole::Physical);
    EXPECT_EQ(pf.ports[0].netdevs, std::vector<std::string>{"ens1f0np0"});
    EXPECT_EQ(pf.ports[0].link_layer, "Ethernet");

    const auto& ib = dev(inv, "mlx5_4");
    EXPECT_EQ(ib.ports[0].link_layer, "InfiniBand");
    EXPECT_EQ(ib.ports[0].netdevs, std::vector<std::string>{"ib0"}); // via device/net fallback

    const auto& vf = dev(inv, "mlx5_5");
    EXPECT_EQ(vf.role, DeviceRole::VirtualFunction);

    const auto& lag = dev(inv, "mlx5_bond_0");
    EXPECT_EQ(lag.role, DeviceRole::Lag);
    EXPECT_EQ(lag.bond_master, "bond0");
    EXPECT_EQ(lag.pci_address, "0000:ab:00.0");

    const auto& down = dev(inv, "mlx5_6");
    EXPECT_EQ(down.ports[0].state, 1);
    EXPECT_EQ(down.ports[0].phys_state_name, "Disabled");

    auto netdevs = readNetdevStates(paths, inv);
    EXPECT_EQ(netdevs.at("ens1f0np0").operstate, "up");
    EXPECT_EQ(netdevs.at("ens1f0np0").carrier, true);
    EXPECT_EQ(netdevs.at("ens6f0np0").operstate, "down");
    EXPECT_EQ(netdevs.at("ens6f0np0").carrier, false);
    EXPECT_TRUE(netdevs.contains("bond0"));
    EXPECT_FALSE(netdevs.contains("eno1")); // not an RDMA netdev
}

TEST_F(InventoryTest, BondMemberWithoutLag)
{
    sim::create(dir_, {});
    // Enslave mlx5_2's netdev to bond0, as an active-backup bond without RoCE LAG would.
    auto nd = fs::canonical(dir_ / "sys/class/net/ens3f0np0");
    fs::create_symlink(fs::relative(fs::canonical(dir_ / "sys/class/net/bond0"), nd),
                       nd / "master");
    auto inv = discoverInventory(HostPaths(dir_));
    const auto& member = dev(inv, "mlx5_2");
    EXPECT_EQ(member.role, DeviceRole::BondMember);
    EXPECT_EQ(member.bond_master, "bond0");
}

TEST_F(InventoryTest, BrokenValuesAreAbsentAndOthersStillWork)
{
    sim::create(dir_, {});
    auto d0 = fs::canonical(dir_ / "sys/class/infiniband/mlx5_0");
    std::ofstream(d0 / "ports/1/state") << "garbage\n";
    fs::remove(d0 / "ports/1/rate");
    fs::remove(d0 / "fw_ver");
    fs::create_directory(d0 / "board_id.tmp");
    fs::remove(d0 / "board_id");
    fs::rename(d0 / "board_id.tmp", d0 / "board_id"); // reading a directory fails (EISDIR)
    std::ofstream(d0 / "device/numa_node") << "-1\n";
    // A device entry that is a dangling link.
    fs::create_symlink("../../devices/nowhere/infiniband/mlx5_9",
                       dir_ / "sys/class/infiniband/mlx5_9");

    auto inv = discoverInventory(HostPaths(dir_));
    const auto& d = dev(inv, "mlx5_0");
    EXPECT_FALSE(d.ports[0].state);
    EXPECT_EQ(d.ports[0].phys_state, 5);
    EXPECT_EQ(d.ports[0].rate, "");
    EXPECT_FALSE(d.ports[0].rate_gbps);
    EXPECT_EQ(d.fw_ver, "");
    EXPECT_EQ(d.board_id, "");
    EXPECT_FALSE(d.numa_node);
    EXPECT_EQ(d.driver, "mlx5_core");
    EXPECT_EQ(dev(inv, "mlx5_1").fw_ver, "28.41.1000");
    const auto& ghost = dev(inv, "mlx5_9");
    EXPECT_TRUE(ghost.ports.empty());
    EXPECT_EQ(inv.devices.size(), 9U);
}

TEST_F(InventoryTest, NoRdmaDevicesAtAll)
{
    EXPECT_TRUE(discoverInventory(HostPaths(dir_)).devices.empty());
}

TEST_F(InventoryTest, ReaderSeesStateChangesAtOnceAndDeviceChangesWithAFullWalk)
{
    sim::create(dir_, {});
    InventoryReader reader(HostPaths(dir_), 1000);
    auto first = reader.read();
    ASSERT_EQ(first.devices.size(), 8U);
    sim::linkDown(dir_, "mlx5_1");
    auto second = reader.read(); // refresh only
    EXPECT_EQ(second.find("mlx5_1")->ports[0].state, 1);
    EXPECT_EQ(second.find("mlx5_1")->ports[0].phys_state_name, "Disabled");
    sim::remove(dir_, "mlx5_2");
    auto third = reader.read(); // the set changed: full walk
    EXPECT_EQ(third.devices.size(), 7U);
    EXPECT_EQ(third.find("mlx5_2"), nullptr);
    sim::restore(dir_, "mlx5_2");
    EXPECT_EQ(reader.read().devices.size(), 8U);
    // A netdev renamed behind our back shows after invalidate().
    auto ndevs = fs::canonical(dir_ / "sys/class/infiniband/mlx5_0") / "ports/1/gid_attrs/ndevs";
    for (int g = 0; g < 4; ++g)
        std::ofstream(ndevs / std::to_string(g)) << "renamed0\n";
    EXPECT_EQ(reader.read().find("mlx5_0")->ports[0].netdevs,
              std::vector<std::string>{"ens1f0np0"});
    reader.invalidate();
    EXPECT_EQ(reader.read().find("mlx5_0")->ports[0].netdevs, std::vector<std::string>{"renamed0"});
}
