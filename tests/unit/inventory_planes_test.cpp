// A ConnectX-8 in multi-plane mode with its SMI sub-device (`rdma dev add smi0 type SMI parent
// mlx5_0`): the SMI device is no NIC of the inventory, its ports are mlx5_0's planes, and only
// what tells it apart (same PCI function, no uverbs) makes it one (inventory/smi_devices.hpp).
#include "inventory/smi_devices.hpp"
#include "support/inventory_fixture.hpp"

#include <optional>

#include <gtest/gtest.h>

using namespace nicd;
using namespace nicd::test;

namespace {

class InventoryPlanes : public InventoryTest {
protected:
    // mlx5_0 (an InfiniBand ConnectX-8 port at 800G) and, on its PCI function, smi0 with four
    // planes at 200G; mlx5_1 beside it on a function of its own. `uverbs`: ib_uverbs loaded.
    void build(bool uverbs = true)
    {
        t_.emplace(dir_);
        t_->addPciFunction({.bdf = "0000:1a:00.0", .numa_node = 0});
        t_->addIbDevice({.name = "mlx5_0", .bdf = "0000:1a:00.0", .hca_type = "MT4131"});
        t_->addPort("mlx5_0", {.link_layer = "InfiniBand", .rate = "800 Gb/sec (4X XDR)"});
        t_->addIbDevice({.name = "smi0", .bdf = "0000:1a:00.0", .hca_type = "MT4131"});
        for (uint32_t plane = 1; plane <= 4; ++plane)
            t_->addPort("smi0", {.num = plane,
                                 .link_layer = "InfiniBand",
                                 .rate = "200 Gb/sec (1X XDR)",
                                 .counters = SysfsTree::pmaCounters()});
        t_->addPciFunction({.bdf = "0000:2a:00.0", .numa_node = 0});
        t_->addIbDevice({.name = "mlx5_1", .bdf = "0000:2a:00.0", .hca_type = "MT4131"});
        t_->addPort("mlx5_1", {.link_layer = "InfiniBand", .rate = "800 Gb/sec (4X XDR)"});
        if (uverbs)
            for (auto [k, ibdev, bdf] :
                 {std::tuple{0, "mlx5_0", "0000:1a:00.0"}, std::tuple{1, "mlx5_1", "0000:2a:00.0"}})
                t_->write(SysfsTree::pciDir(bdf) + "/infiniband_verbs/uverbs" + std::to_string(k) +
                              "/ibdev",
                          ibdev);
    }

    std::optional<SysfsTree> t_; // made in the test's directory by build()
};

TEST_F(InventoryPlanes, TheSmiDevicesPortsArePlanesOfItsParentNotANic)
{
    build();
    auto inv = inventory::discoverInventory(HostPaths(dir_));
    EXPECT_EQ(names(inv), (Strings{"mlx5_0", "mlx5_1"})) << "smi0 is no NIC";
    const auto& d = dev(inv, "mlx5_0");
    ASSERT_EQ(d.ports.size(), 1U);
    ASSERT_EQ(d.planes.size(), 4U);
    for (uint32_t i = 0; i < 4; ++i) {
        const auto& plane = d.planes[i];
        EXPECT_EQ(plane.smi_device, "smi0");
        EXPECT_EQ(plane.native_port, 1U);
        EXPECT_EQ(plane.port.num, i + 1);
        EXPECT_EQ(plane.port.rate, "200 Gb/sec (1X XDR)");
        EXPECT_DOUBLE_EQ(*plane.port.rate_gbps, 200);
        EXPECT_EQ(plane.port.state_name, "ACTIVE"); // as read: the native port's
    }
    EXPECT_TRUE(dev(inv, "mlx5_1").planes.empty());
}

TEST_F(InventoryPlanes, WithoutUverbsNothingTellsThemApart)
{
    build(false);
    auto inv = inventory::discoverInventory(HostPaths(dir_));
    EXPECT_EQ(names(inv), (Strings{"mlx5_0", "mlx5_1", "smi0"}));
    EXPECT_TRUE(dev(inv, "mlx5_0").planes.empty());
}

TEST_F(InventoryPlanes, TheSmiDeviceOfAnIgnoredDeviceIsIgnoredToo)
{
    build();
    auto inv = inventory::discoverInventory(HostPaths(dir_), inventory::IgnoreList({"mlx5_0"}));
    EXPECT_EQ(names(inv), (Strings{"mlx5_1"}));
    ASSERT_EQ(inv.ignored.size(), 2U);
    EXPECT_EQ(inv.ignored[0].ibdev, "mlx5_0");
    EXPECT_EQ(inv.ignored[1].ibdev, "smi0");
    EXPECT_EQ(inv.ignored[1].matched, "mlx5_0");
}

TEST_F(InventoryPlanes, APlanesRateIsReadAgainBetweenFullWalks)
{
    build();
    inventory::InventoryReader reader(HostPaths(dir_), 1000, 1e9);
    auto first = reader.read();
    ASSERT_EQ(first.find("mlx5_0")->planes.size(), 4U);
    t_->write(t_->ibDir("smi0") + "/ports/2/rate", "100 Gb/sec (1X NDR)");
    auto next = reader.read(); // no full walk: the run-time attributes only
    const auto& planes = next.find("mlx5_0")->planes;
    ASSERT_EQ(planes.size(), 4U);
    EXPECT_EQ(planes[1].port.rate, "100 Gb/sec (1X NDR)");
    EXPECT_DOUBLE_EQ(*planes[1].port.rate_gbps, 100);
    EXPECT_EQ(next.devices.size(), 2U);
}

TEST(InventoryPlanesNative, PlanesAreDealtToTheNativePortsInOrder)
{
    EXPECT_EQ(inventory::nativePortOf(3, 4, 1), 1U);
    EXPECT_EQ(inventory::nativePortOf(2, 8, 2), 1U);
    EXPECT_EQ(inventory::nativePortOf(5, 8, 2), 2U);
    EXPECT_EQ(inventory::nativePortOf(1, 3, 2), 1U); // not evenly dealt: cannot say
}

} // namespace
