// The inventory tests' fixture: sysfs roots from the public fixtures, and a node built in the
// kernel's layout with every kind of RDMA device.
#pragma once

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

namespace nicd::test {

namespace fs = std::filesystem;
using Strings = std::vector<std::string>;

inline const std::filesystem::path kFixtures = fs::path(NICD_SHARED_DIR) / "fixtures";

class InventoryTest : public TempDirTest {
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
    void buildNode(SysfsTree& t)
    {
        using T = SysfsTree;
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

} // namespace nicd::test
