// Roles found from where a NIC sits (inventory/nic_roles.hpp), on hand-built inventories: a real
// PCIe switch shared with a GPU, a GPU on the same NUMA node only (which counts only on a node
// where no NIC shares a switch with a GPU), neither, a common host bridge that is no switch, the
// default route (and IncludeNetdevs=), and Role= over all of it.
#include "inventory/nic_roles.hpp"
#include "support/health_fixture.hpp"

#include <gtest/gtest.h>

using namespace nicd;

namespace {

Device nic(const std::string& name, const std::string& path, std::optional<int> numa,
           const std::string& netdev)
{
    auto d = test::device(name, 4);
    d.pci_path = path;
    d.numa_node = numa;
    d.ports[0].netdevs = {netdev};
    return d;
}

const std::string kSwitch = "/sys/devices/pci0000:17/0000:17:01.0/0000:18:00.0";

Inventory node()
{
    Inventory inv;
    // Behind one PCIe switch (upstream 0000:18:00.0): the NIC and GPU 0 (NVIDIA's PXB).
    inv.devices.push_back(nic("mlx5_0", kSwitch + "/0000:19:00.0/0000:1a:00.0", 0, "ens1"));
    // Same socket as GPU 0, its own root port: NUMA only.
    inv.devices.push_back(
        nic("mlx5_1", "/sys/devices/pci0000:30/0000:30:01.0/0000:31:00.0", 0, "ens2"));
    // Socket 1, no GPU there.
    inv.devices.push_back(
        nic("mlx5_2", "/sys/devices/pci0000:a0/0000:a0:01.0/0000:a1:00.0", 1, "ens3"));
    // NUMA unknown (-1), under the same host bridge as GPU 1 but another root port.
    inv.devices.push_back(
        nic("mlx5_3", "/sys/devices/pci0000:c0/0000:c0:01.0/0000:c1:00.0", std::nullopt, "ens4"));
    inv.gpus.push_back({"0000:1b:00.0", kSwitch + "/0000:19:04.0/0000:1b:00.0", 0});
    inv.gpus.push_back(
        {"0000:c3:00.0", "/sys/devices/pci0000:c0/0000:c0:03.0/0000:c3:00.0", std::nullopt});
    return inv;
}

const Device& dev(const Inventory& inv, const std::string& name)
{
    for (const auto& d : inv.devices)
        if (d.ibdev == name)
            return d;
    throw std::runtime_error(name);
}

} // namespace

TEST(NicRoles, ASharedSwitchOrNumaNodeMakesAComputeNicElseStorage)
{
    auto inv = node();
    inv.devices.erase(inv.devices.begin()); // no NIC shares a switch with a GPU: NUMA decides
    inventory::assignRoles(inv, {}, Config{});
    EXPECT_EQ(dev(inv, "mlx5_1").role, Role::Compute);
    EXPECT_EQ(dev(inv, "mlx5_1").role_reason, "on NUMA node 0 with GPU 0000:1b:00.0");
    EXPECT_EQ(dev(inv, "mlx5_2").role, Role::Storage);
    EXPECT_EQ(dev(inv, "mlx5_3").role, Role::Compute)
        << "a host bridge in common is not a switch; an unknown NUMA node is no socket apart";
    EXPECT_EQ(dev(inv, "mlx5_3").role_reason, "no NUMA node to tell it from GPU 0000:1b:00.0");
}

// A cloud VM: every NIC and GPU on a root port of its own, NUMA node -1 everywhere. The NICs are
// compute (a VM's RDMA NICs are its training fabric) but the one with the default route.
TEST(NicRoles, InAVmWithoutNumaNodesTheRdmaNicsAreCompute)
{
    Inventory inv;
    for (int i = 0; i < 3; ++i) {
        Device d;
        d.ibdev = fmt::format("mlx5_{}", i);
        d.pci_path =
            fmt::format("/sys/devices/pci0000:00/0000:00:0{}.0/0000:0{}:00.0", i + 2, i + 2);
        d.ports.push_back({});
        d.ports[0].netdevs = {fmt::format("eth{}", i)};
        inv.devices.push_back(d);
        inv.gpus.push_back(
            {fmt::format("0000:1{}:00.0", i),
             fmt::format("/sys/devices/pci0000:00/0000:00:1{}.0/0000:1{}:00.0", i, i),
             std::nullopt});
    }
    inventory::assignRoles(inv, {"eth2"}, Config{});
    EXPECT_EQ(dev(inv, "mlx5_0").role, Role::Compute);
    EXPECT_EQ(dev(inv, "mlx5_1").role, Role::Compute);
    EXPECT_EQ(dev(inv, "mlx5_2").role, Role::Management) << "the default route";
}

// An HGX board: the NICs under the GPUs' switches are the compute NICs, and another NIC on a
// GPU's socket (storage, north-south) is not one, as NCCL would not use it for that GPU.
TEST(NicRoles, WhereNicsShareSwitchesWithGpusTheSocketAloneIsNoComputeNic)
{
    auto inv = node();
    inventory::assignRoles(inv, {}, Config{});
    EXPECT_EQ(dev(inv, "mlx5_0").role, Role::Compute);
    EXPECT_EQ(dev(inv, "mlx5_0").role_reason, "shares a PCIe switch with GPU 0000:1b:00.0");
    EXPECT_EQ(dev(inv, "mlx5_1").role, Role::Storage) << "on GPU 0's socket, not its switch";
    EXPECT_EQ(dev(inv, "mlx5_1").role_reason, "no GPU under its PCIe switch");
    EXPECT_EQ(dev(inv, "mlx5_2").role, Role::Storage);
}

TEST(NicRoles, WithoutGpusEveryNicIsStorage)
{
    auto inv = node();
    inv.gpus.clear();
    inventory::assignRoles(inv, {}, Config{});
    for (const auto& d : inv.devices) {
        EXPECT_EQ(d.role, Role::Storage) << d.ibdev;
        EXPECT_EQ(d.role_reason, "no GPU on this node");
    }
}

TEST(NicRoles, TheDefaultRouteMakesAManagementNicUnlessIncluded)
{
    auto inv = node();
    inventory::assignRoles(inv, {"ens1", "ens3"}, Config{});
    EXPECT_EQ(dev(inv, "mlx5_0").role, Role::Management) << "beside a GPU, but the route wins";
    EXPECT_EQ(dev(inv, "mlx5_0").role_reason, "ens1 carries the default route");
    EXPECT_EQ(dev(inv, "mlx5_2").role, Role::Management);
    Config c;
    c.provision.include_netdevs = {"ens1*"};
    EXPECT_FALSE(inventory::isManagementNetdev("ens1", {"ens1"}, c));
    EXPECT_TRUE(inventory::isManagementNetdev("ens3", {"ens1", "ens3"}, c));
    EXPECT_FALSE(inventory::isManagementNetdev("ens2", {"ens1", "ens3"}, c));
    inventory::assignRoles(inv, {"ens1"}, c);
    EXPECT_EQ(dev(inv, "mlx5_0").role, Role::Compute) << "IncludeNetdevs= names it";
    // A LAG device's route leaves through its bond.
    inv.devices[1].bond_master = "bond0";
    inventory::assignRoles(inv, {"bond0"}, Config{});
    EXPECT_EQ(dev(inv, "mlx5_1").role, Role::Management);
}

TEST(NicRoles, RoleOverridesWhatIsFound)
{
    auto inv = node();
    Config c;
    c.devices["mlx5_0"].role = Role::Storage;
    c.devices["mlx5_2"].role = Role::Compute;
    inventory::assignRoles(inv, {"ens1"}, c);
    EXPECT_EQ(dev(inv, "mlx5_0").role, Role::Storage);
    EXPECT_EQ(dev(inv, "mlx5_0").role_reason, "[device:mlx5_0] Role=");
    EXPECT_EQ(dev(inv, "mlx5_2").role, Role::Compute);
}

TEST(NicRoles, OnlyABridgeBelowTheHostBridgeIsShared)
{
    EXPECT_TRUE(inventory::sharePciSwitch(kSwitch + "/0000:19:00.0/0000:1a:00.0",
                                          kSwitch + "/0000:19:04.0/0000:1b:00.0"));
    EXPECT_TRUE(inventory::sharePciSwitch("/sys/devices/pci0000:19/0000:19:01.0/0000:1a:00.0",
                                          "/sys/devices/pci0000:19/0000:19:01.0/0000:1a:01.0"))
        << "two functions behind one root port";
    EXPECT_FALSE(inventory::sharePciSwitch("/sys/devices/pci0000:19/0000:19:01.0/0000:1a:00.0",
                                           "/sys/devices/pci0000:19/0000:19:02.0/0000:1b:00.0"))
        << "only the host bridge in common";
    EXPECT_FALSE(inventory::sharePciSwitch("/sys/devices/pci0000:19/0000:19:01.0",
                                           "/sys/devices/pci0000:19/0000:19:01.0/0000:1a:00.0"))
        << "a bridge is not beside the function below it";
    EXPECT_FALSE(inventory::sharePciSwitch("", kSwitch + "/0000:19:00.0/0000:1a:00.0"));
}
