// Copies, from a node's sysfs, exactly what nicd reads (and a few neighbouring attributes that
// help read a bug report), at the same paths and with the kernel's relative symlinks:
//
//   sys/class/infiniband/<dev> -> the RDMA device: fw_ver, board_id, hca_type, hw_rev, node_type,
//     node_guid, sys_image_guid; ports/<n>/{state,phys_state,rate,link_layer,cap_mask},
//     gid_attrs/ndevs/*; tc/<n>/traffic_class (MOFED); its `device` link; the names of
//     ports/<n>/counters/* and hw_counters/* (read by each sample, device_reads.hpp)
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
//   for the readiness checks: ports/<n>/gids/* as placeholders of the same kind (an IPv4 address,
//     a global IPv6 one, a link-local one or unused: never the address) and gid_attrs/types/*;
//     <function>/infiniband_verbs/uverbs*/{ibdev,dev,abi_version}, whether /dev/infiniband/
//     uverbs* exists (an empty file; the node is never opened); likewise <function>/
//     infiniband_mad/{umad,issm}*/{ibdev,port,dev} and /dev/infiniband/{umad,issm}*; the
//     `config` of every PCI bridge
//     above a NIC or GPU (what the reader is given: 4096 bytes as root, 64 otherwise); the
//     peer memory clients' version files, /proc/driver/nvidia/version, /proc/sys/kernel/osrelease
//
// Not copied: node_desc (it holds the hostname: only learnt, for the scrubber), GID values (they
// hold IP addresses), netdev statistics, the functions' own config space and resources. Reads are
// the node's own: nothing is written. A file the kernel refuses is noted in the manifest, unless
// the refusal means "no value here" (EINVAL, EOPNOTSUPP, ENODATA: a down link's speed, a PF's
// phys_port_name); a path that cannot even be looked at (ELOOP, EACCES) is noted and skipped.
//
// Every read goes through NodeRoot (node_files.hpp): beneath the source, no symlink followed. The
// kernel's links the walk goes through (the class links, `device`, `master`, `physfn`) are
// resolved to find the directories to read, only where they lead into the source's sys/, and
// each is kept in the capture as a link (keptLinkTarget); a symlink met where a file was
// expected is kept as a link too, never read through.
#pragma once

#include "capture/capture_tree.hpp"
#include "capture/deadline_job.hpp"
#include "capture/manifest.hpp"
#include "capture/node_files.hpp"

#include <map>
#include <memory>
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
    std::string node_desc_host;             // node_desc's first word: a hostname, learnt only
    std::vector<std::string> port1_netdevs; // as nicd picks them: GID netdevs, else the function's
    std::vector<std::string> netdevs;       // the netdevs its walk brought in, bonds left out: the
                                            // ones whose tool outputs it reads
    std::vector<std::string> counter_files; // rel paths of ports/*/counters/* and hw_counters/*
    bool virtual_function = false;
    bool infiniband = false; // port 1's link layer
    bool given_up = false;   // read no more: it stopped answering (device_reads.hpp)
};

struct CapturedNode {
    std::vector<CapturedDevice> devices;
    std::set<std::string> netdevs;                         // every netdev captured (bonds included)
    std::map<std::string, std::vector<std::string>> bonds; // bond -> its slaves
    std::vector<std::string> gpus;                         // PCI addresses
};

// The target a capture keeps for the symlink at `link_rel` (relative to the node's root): the
// place it names, as a path relative to the link's directory that never climbs out of the
// capture (an absolute target is taken from the node's root, and ".." stops at the root, as it
// does at "/"). Pure.
std::string keptLinkTarget(const std::string& link_rel, const std::string& target);

class SysfsWalk {
public:
    // `root`: the node's root ("/" on a real node), canonical. `reader` reads every file.
    SysfsWalk(std::shared_ptr<const NodeRoot> root, CaptureTree& tree, Manifest& manifest,
              std::shared_ptr<const FileReader> reader);

    const fs::path& source() const { return src_; }

    // The RDMA devices named in `only` (every one when empty), in order. Throws SimError naming
    // the known devices when `only` names one that is not there.
    std::vector<std::string> deviceNames(const std::vector<std::string>& only) const;

    // Walks the RDMA device `name` and all it leads to into the tree; node.devices.back() is it,
    // as far as it got. Its reads go through `guard` (a job's, deadline_job.hpp) when given.
    void device(const std::string& name, CapturedNode& node, JobGuard* guard = nullptr);

    // The GPUs' functions (never a NIC's: read without a deadline).
    void gpus(CapturedNode& node);
    // The node's GPUDirect evidence (peer memory clients, the NVIDIA driver's version, the
    // kernel release) and the uverbs class (sysfs_walk_readiness.cpp).
    void readinessHostFiles();

    // Reads `file` (relative to the node) as a counter into `into`: a file, a FIFO, or noted.
    void readCounter(const std::string& file, CaptureTree& into, JobGuard* guard = nullptr);

private:
    NodeRead read(const fs::path& p);
    std::string rel(const fs::path& p) const;
    std::optional<fs::path> resolve(const fs::path& p) const;
    bool exists(const fs::path& p);
    bool isSymlink(const fs::path& p);
    void copyFile(const fs::path& p, Scrub scrub = Scrub::Known);
    void copyFiles(const fs::path& dir, std::span<const char* const> names,
                   Scrub scrub = Scrub::Known);
    void copyLink(const fs::path& link);
    void keepLink(const std::string& rel, const std::string& target);
    std::vector<std::string> list(const fs::path& dir) const { return root_->list(dir); }
    void copyTree(const fs::path& dir, int depth);

    void ports(const fs::path& ib_dir, CapturedDevice& d, CapturedNode& node);
    void function(const fs::path& dir, bool with_netdevs, CapturedNode& node);
    // The bridges from `dir` up to the host bridge, each once.
    void bridge(const fs::path& dir);
    void hwmon(const fs::path& function_dir);
    void netdev(const std::string& name, CapturedNode& node);
    // What the readiness checks read (sysfs_walk_readiness.cpp): the port's GID table, the
    // device's uverbs device and its ports' umad and issm devices, and the config files of the
    // bridges above a function.
    void gids(const fs::path& port_dir);
    void verbs(const fs::path& function_dir);
    void mads(const fs::path& function_dir);
    // A class device's link in /sys/class/<cls> and whether its /dev/infiniband node exists.
    void charDevice(const std::string& cls, const std::string& name);
    void bridgeConfigs(const fs::path& function_dir);

    std::shared_ptr<const NodeRoot> root_;
    fs::path src_;
    CaptureTree& tree_;
    Manifest& manifest_;
    std::shared_ptr<const FileReader> reader_;
    JobGuard* guard_ = nullptr;         // the current job's, while a device is walked
    CapturedDevice* current_ = nullptr; // the device walked now
    std::set<std::string> functions_done_;
    std::set<std::string> bridges_done_;
};

} // namespace nicd::sim::capture
