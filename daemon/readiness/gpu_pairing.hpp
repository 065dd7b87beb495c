// Which GPUs a compute NIC serves, and the PCIe bridges between them. NCCL pairs a NIC with the
// GPUs nearest to it on the PCI tree (its topology's PIX/PXB: below one switch) and uses
// GPUDirect RDMA between them by default only there (NCCL_NET_GDR_LEVEL=PXB); the role rules
// (inventory/nic_roles.hpp) call a NIC compute for the same reason, or for sitting on a GPU's
// NUMA node. So a NIC is paired with:
//   1. the GPUs below a PCIe switch it is below too, else
//   2. the GPUs on its NUMA node, else
//   3. every GPU of the node (a NIC made compute by Role=, beside none of them).
// Between a NIC and a GPU below one switch, peer-to-peer traffic crosses the bridges from their
// lowest common bridge down to each (that bridge included: in the simulated node the shared
// root port plays the switch). Pure.
#pragma once

#include "model/inventory.hpp"
#include "model/readiness.hpp"

#include <string>
#include <vector>

namespace nicd::readiness {

// A bridge on a path, with the directory its config file is in.
struct BridgeOnPath {
    std::string address; // 0000:19:01.0
    std::string dir;     // the resolved path up to it: .../pci0000:19/0000:19:01.0
};

// The bridges P2P traffic between the functions at the resolved sysfs paths `a` and `b` crosses:
// their lowest common PCI bridge and every bridge below it on either side (the functions
// themselves left out), nearest the root first; empty when they share no PCI bridge.
std::vector<BridgeOnPath> bridgesBetween(const std::string& a, const std::string& b);

// The GPUs `nic` serves (see above), each with the bridges between them.
std::vector<GpuPairing> pairGpus(const Device& nic, const std::vector<GpuFunction>& gpus);

} // namespace nicd::readiness
