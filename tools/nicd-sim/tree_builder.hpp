// The pieces of a node's kernel-shaped tree: PCI functions, netdevs, RDMA devices, bonds and the
// host files around them. Each writes what the kernel would show and links it the way the
// kernel does (relative symlinks from /sys/class and /sys/bus into /sys/devices).
#pragma once

#include "node_state.hpp"
#include "vendor_catalog.hpp"

#include <string>
#include <vector>

namespace nicd::sim {

inline constexpr int kAsicHealthyMillidegrees = 55000;
inline constexpr int kAsicCritMillidegrees = 105000;

struct PciPlan {
    std::string bdf;       // 0000:1a:00.0
    std::string root_port; // 0000:19:01.0 (its bus names the host bridge: pci0000:19)
    std::string driver;    // mlx5_core, igb
    std::string vendor;    // 0x15b3
    std::string device;    // 0x1021 (ConnectX-7), 0x101e (ConnectX VF), 0x1533 (I210)
    std::string pci_class; // 0x020000 Ethernet, 0x020700 InfiniBand
    int numa_node = 0;
    // A PCIe switch's ports between the root port and the function, top first: its upstream
    // port, then the downstream port the function hangs off. Empty: right below the root port.
    std::vector<std::string> switch_ports;
};

struct PortPlan {
    std::string link_layer = "Ethernet";
    bool up = true;
    std::string rate = "400 Gb/sec (4X NDR)";
};

struct NetdevPlan {
    std::string name;
    bool up = true;
    int dev_port = 0;
    std::string phys_port_name; // "p0" on a PF uplink; empty: no such file (VF, IPoIB)
    bool infiniband = false;    // IPoIB: type 32, 20-byte address
    int speed_mbps = 400000;
};

class TreeBuilder {
public:
    explicit TreeBuilder(fs::path root);

    fs::path pciFunction(const PciPlan& plan);
    // An NVIDIA GPU (vendor 0x10de, class 0x030200; `device_id` 0x2330: an H100 SXM5) behind
    // `root_port`, on `numa_node`.
    fs::path gpu(const std::string& bdf, const std::string& root_port, int numa_node,
                 const std::string& device_id = "0x2330",
                 std::vector<std::string> switch_ports = {});
    fs::path netdev(const fs::path& pci_dir, const NetdevPlan& plan);
    // mlx5's hwmon on a PF (Linux >= 6.6): temp1 "asic", with its critical threshold; bnxt_en's
    // (bnxt_hwmon.c): temp1 with no label, its max/crit/emergency thresholds and their alarms.
    fs::path hwmon(const fs::path& pci_dir, const std::string& vendor = kMlx5);
    // board_id: the card's PSID; cards of one model and firmware share it (nicd compares a port's
    // rate with its board's peers). `vendor` gives fw_ver, node_desc, hw_rev and hw_counters/.
    fs::path ibDevice(const fs::path& pci_dir, const std::string& name, const std::string& hca,
                      const std::vector<PortPlan>& ports, const std::string& gid_netdev,
                      const std::string& board_id = "MT_0000000838",
                      const std::string& vendor = kMlx5);
    // The auxiliary device bnxt_en creates for bnxt_re on a RoCE-capable function
    // (bnxt_ulp.c bnxt_rdma_aux_device_init: "rdma" with an IDA id, so bnxt_en.rdma.<id>), bound
    // to the auxiliary driver bnxt_re.rdma.
    fs::path auxDevice(const fs::path& pci_dir, const VendorCatalog& vendor, int id);
    // A bond under /sys/devices/virtual/net with `slaves` (netdev dirs) enslaved to it.
    fs::path bond(const std::string& name, const std::vector<fs::path>& slaves);
    void sriov(const fs::path& pf_dir, const fs::path& vf_dir, int vf_index);
    void ethtool(const std::string& netdev, bool physical_function, unsigned channels,
                 const std::string& vendor = kMlx5);
    void hostFiles(const CreateOptions& options);

    fs::path relative(const fs::path& p) const { return fs::relative(p, root_); }

private:
    fs::path root_;
    fs::path sys_;
    int next_ifindex_ = 2; // 1 is lo
    int next_guid_ = 0;
    int next_hwmon_ = 0;
};

} // namespace nicd::sim
