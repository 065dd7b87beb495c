// Copies, from a node's sysfs, exactly what nicd reads (and a few neighbouring attributes that
// help read a bug report), at the same paths and with the kernel's relative symlinks:
//
//   sys/class/infiniband/<dev> -> the RDMA device: fw_ver, board_id, hca_type, hw_rev, node_type,
//     node_guid, sys_image_guid; ports/<n>/{state,phys_state,rate,link_layer}, counters/*,
//     hw_counters/*, gid_attrs/ndevs/*; tc/<n>/traffic_class (MOFED); its `device` link
//   the PCI function: vendor, device, class, subsystem ids, revision, numa_node, PCIe link
//     speed/width (current and max), SR-IOV counts; driver, physfn and virtfn* links;
//     hwmon/hwmon*/{name,temp*}; net/<netdev>; sys/bus/pci/devices/<bdf>; the upstream bridge's
//     vendor/device/class and link speed/width
//   sys/class/net/<netdev> -> every netdev of those functions, every netdev a GID names, their
//     bonds and the bonds' slaves: operstate, carrier, ifindex, iflink, dev_port, dev_id,
//     phys_port_name, type, address, addr_len, mtu, speed, duplex, carrier_changes, flags;
//     device and master links; bonding/{slaves,mode,xmit_hash_policy,active_slave,miimon};
//     the MOFED ecn/ tree
//   the NVIDIA GPUs nicd finds (their functions' vendor, device, class, numa_node), as nicd's
//     role rules look for them
//
// Not copied: node_desc (it holds the hostname), GID tables (they hold IP addresses), netdev
// statistics, PCI config space and resources. Reads are the node's own: nothing is written.
#pragma once

#include "capture/capture_tree.hpp"
#include "capture/manifest.hpp"
#include "capture/node_files.hpp"

#include <chrono>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

namespace nicd::sim::capture {

struct CapturedDevice {
    std::string name;
    std::string ib_rel;       // sys/devices/.../infiniband/<name>
    std::string function_rel; // sys/devices/.../<bdf>; empty without a PCI function
    std::string pci_address;
    std::vector<std::string> port1_netdevs; // as nicd picks them: GID netdevs, else the function's
    std::vector<std::string> counter_files; // rel paths of ports/*/counters/* and hw_counters/*
    bool virtual_function = false;
    bool infiniband = false; // port 1's link layer
};

struct CapturedNode {
    std::vector<CapturedDevice> devices;
    std::set<std::string> netdevs;                         // every netdev captured (bonds included)
    std::map<std::string, std::vector<std::string>> bonds; // bond -> its slaves
    std::vector<std::string> gpus;                         // PCI addresses
};

// Reads counters/ and hw_counters/ of each device; a file not read in time becomes a FIFO.
inline constexpr std::chrono::milliseconds kCounterDeadline{3000};

class SysfsWalk {
public:
    // `src`: the node's root ("/" on a real node), canonical.
    SysfsWalk(fs::path src, CaptureTree& tree, Manifest& manifest,
              std::chrono::milliseconds deadline = kCounterDeadline);

    // The RDMA devices named in `only` (every one when empty), with all they lead to. Throws
    // SimError naming the known devices when `only` names one that is not there.
    CapturedNode run(const std::vector<std::string>& only);

    // Reads `files` (relative paths) as the counters of one device into `into` (the capture, or
    // a later sample); a file not read in time becomes a FIFO and is noted.
    void readCounters(const std::vector<std::string>& files, CaptureTree& into);

private:
    std::string rel(const fs::path& p) const;
    std::optional<fs::path> resolve(const fs::path& p) const;
    void copyFile(const fs::path& p, Scrub scrub = Scrub::Known, bool quiet = false);
    void copyFiles(const fs::path& dir, std::span<const char* const> names,
                   Scrub scrub = Scrub::Known);
    void copyLink(const fs::path& link);
    void copyTree(const fs::path& dir, int depth);

    void device(const std::string& name, CapturedNode& node);
    void ports(const fs::path& ib_dir, CapturedDevice& d, CapturedNode& node);
    void function(const fs::path& dir, bool with_netdevs, CapturedNode& node);
    void bridge(const fs::path& dir);
    void hwmon(const fs::path& function_dir);
    void netdev(const std::string& name, CapturedNode& node);
    void gpus(CapturedNode& node);

    fs::path src_;
    CaptureTree& tree_;
    Manifest& manifest_;
    std::chrono::milliseconds deadline_;
    std::set<std::string> functions_done_;
};

} // namespace nicd::sim::capture
