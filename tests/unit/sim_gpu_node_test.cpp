// The simulator's GPU nodes (gpu_node.hpp) as nicd discovers them: a profile's GPUs by their PCI
// IDs, each compute NIC under its GPU's switch (compute), the storage card on a GPU's socket but
// under a switch of its own (storage), the NIC its platform ships; and a simulated reboot.
#include "inventory/nic_roles.hpp"
#include "inventory/sysfs_inventory.hpp"
#include "sim.hpp"
#include "support/sim_tree.hpp"

#include <gtest/gtest.h>

namespace fs = std::filesystem;
using namespace nicd;
using test::readFile;

namespace {

class SimGpuNodeTest : public test::SimDirTest {
protected:
    Inventory discovered()
    {
        auto inv = inventory::discoverInventory(HostPaths(dir_));
        inventory::assignRoles(inv, {"eno1"}, Config{});
        return inv;
    }
    static size_t count(const Inventory& inv, Role role)
    {
        return std::count_if(inv.devices.begin(), inv.devices.end(),
                             [&](const Device& d) { return d.role == role; });
    }
};

} // namespace

TEST_F(SimGpuNodeTest, AnHgxH100NodeHasEightGpusEachBesideAComputeNic)
{
    sim::CreateOptions o;
    sim::applyProfile(o, "hgx-h100");
    sim::create(dir_, o);
    auto inv = discovered();
    ASSERT_EQ(inv.gpus.size(), 8U);
    for (const auto& g : inv.gpus)
        EXPECT_EQ(g.device_id, "0x2330") << g.pci_address;
    ASSERT_EQ(inv.devices.size(), 10U);
    EXPECT_EQ(count(inv, Role::Compute), 8U);
    EXPECT_EQ(count(inv, Role::Storage), 2U) << "on the GPUs' sockets, under no GPU's switch";
    for (int i = 0; i < 8; ++i) {
        const auto* d = inv.find(fmt::format("mlx5_{}", i));
        ASSERT_NE(d, nullptr);
        EXPECT_EQ(d->role, Role::Compute) << d->ibdev << ": " << d->role_reason;
        EXPECT_EQ(d->ports.at(0).rate_gbps, 400) << d->ibdev;
        EXPECT_EQ(d->hca_type, "MT4129");
    }
    EXPECT_EQ(inv.find("mlx5_8")->ports.at(0).rate_gbps, 200);
    EXPECT_EQ(inv.find("mlx5_9")->pci_address, "0000:e1:00.1");
}

TEST_F(SimGpuNodeTest, GpuCountModelAndNicsAreChosen)
{
    sim::CreateOptions o;
    o.gpus = 4;
    o.gpu_model = "b300";
    o.compute_nics = 3;
    o.storage_ports = 0;
    sim::create(dir_, o);
    auto inv = discovered();
    ASSERT_EQ(inv.gpus.size(), 4U);
    EXPECT_EQ(inv.gpus[0].device_id, "0x3182");
    ASSERT_EQ(inv.devices.size(), 3U) << "GPU 3 has no NIC beside it";
    EXPECT_EQ(inv.devices[0].ports.at(0).rate_gbps, 800) << "ConnectX-8 beside a B300";
    EXPECT_EQ(inv.devices[0].hca_type, "MT4131");

    sim::CreateOptions none;
    none.gpus = 0;
    none.force = true;
    sim::create(dir_, none);
    inv = discovered();
    EXPECT_TRUE(inv.gpus.empty());
    EXPECT_EQ(count(inv, Role::Storage), 2U);

    sim::CreateOptions bad;
    bad.force = true;
    EXPECT_THROW(sim::applyProfile(bad, "hgx-h9000"), sim::SimError);
    bad.gpus = 2;
    bad.gpu_model = "h9000";
    EXPECT_THROW(sim::create(dir_, bad), sim::SimError);
    bad.gpu_model = "h100";
    bad.devices = 4;
    EXPECT_THROW(sim::create(dir_, bad), sim::SimError) << "--devices and --gpus";
}

// A reboot changes the boot ID and nothing else: a removed NIC stays removed.
TEST_F(SimGpuNodeTest, ARebootKeepsARemovedNicRemoved)
{
    sim::CreateOptions o;
    sim::applyProfile(o, "gb200");
    sim::create(dir_, o);
    EXPECT_EQ(inventory::discoverInventory(HostPaths(dir_)).gpus.size(), 4U)
        << "an NVL72 compute tray";
    sim::remove(dir_, "mlx5_2");
    const auto boot_id = dir_ / "proc/sys/kernel/random/boot_id";
    EXPECT_EQ(readFile(boot_id), "5b1f2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d\n");
    sim::reboot(dir_);
    EXPECT_EQ(readFile(boot_id), "5b1f2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4e\n");
    sim::reboot(dir_, "11111111-2222-3333-4444-555555555555");
    EXPECT_EQ(readFile(boot_id), "11111111-2222-3333-4444-555555555555\n");
    EXPECT_EQ(inventory::discoverInventory(HostPaths(dir_)).find("mlx5_2"), nullptr);
    sim::restore(dir_, "mlx5_2");
    EXPECT_NE(inventory::discoverInventory(HostPaths(dir_)).find("mlx5_2"), nullptr);
}
