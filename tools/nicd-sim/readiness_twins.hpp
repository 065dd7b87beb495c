// The simulated twins of what nicd's readiness checks read (daemon/readiness/), made by `create`
// after the devices, and the faults that break each (cli/readiness_fault_commands.cpp). Every value
// is what a healthy HGX node shows:
//   sys/class/infiniband/<dev>/ports/N/gids/0..15   RoCE: link-local GIDs 0-1, the netdev's IPv4
//       address as ::ffff:10.<n>.0.1 in 2-3 (n as in proc/net/route), then unused zero entries
//   <function>/infiniband_verbs/uverbs<K>/{ibdev,dev}, sys/class/infiniband_verbs/uverbs<K> and
//       abi_version, and dev/infiniband/uverbs<K> (a plain file standing for the char device)
//   <function>/infiniband_mad/{umad,issm}<M>/{ibdev,port,dev} for every port of every device (the
//       kernel's ib_umad makes them for RoCE ports too; nicd asks them of InfiniBand ports only),
//       sys/class/infiniband_mad/{umad,issm}<M> and abi_version, and dev/infiniband/{umad,issm}<M>
//   sys/module/nvidia_peermem/version, proc/driver/nvidia/version (the proprietary 535 module, so
//       GPUDirect RDMA rests on nvidia-peermem alone), proc/sys/kernel/osrelease
//   every PCIe root port's config: 4096 bytes, AER at 0x100, ACS at 0x148 with no redirect
// (on nodes with GPUs only: the driver files and the module).
#pragma once

#include "node_state.hpp"

namespace nicd::sim {

void createReadinessTwins(const fs::path& root, const NodeState& st);

// The uverbs, umad and issm devices' `ibdev` follow a rename of their RDMA device (the kernel
// prints the current name), `ib_dir` being the device's directory after it.
void renameVerbsDevice(const fs::path& root, const fs::path& ib_dir, const std::string& from,
                       const std::string& to);

// gid-missing: the netdev's IP address is gone: GIDs 2-3 become unused (zero) entries.
void gidMissing(const fs::path& root, const std::string& dev, bool on);
// mtu: the device's netdevs drop to MTU 1500 (the others keep 9000); clear: 9000 again.
void mtuMismatch(const fs::path& root, const std::string& dev, bool on);
// uverbs-missing: dev/infiniband/uverbs<K> of the device disappears (udev did not make it).
void uverbsMissing(const fs::path& root, const std::string& dev, bool on);
// umad-missing: dev/infiniband/umad<M> and issm<M> of every port of the device disappear (udev
// did not make them); sysfs keeps its entries.
void umadMissing(const fs::path& root, const std::string& dev, bool on);
// peermem-unload: sys/module/nvidia_peermem disappears (node-wide).
void peermemUnload(const fs::path& root, bool on);
// acs-on: ACS P2P Request and Completion Redirect on the root port above the device.
void acsOn(const fs::path& root, const std::string& dev, bool on);

} // namespace nicd::sim
