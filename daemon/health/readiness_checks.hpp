// Whether NCCL, and the tools around it, can use a compute port at full rate: eight checks, each a
// pure decision over what the readiness source read (model/readiness.hpp), saying what it saw. A
// check without its input says "unknown" (never a false alarm, never a false pass); one that does
// not apply, "skipped".
//   gid        RoCE: a RoCE v2 GID that carries an IP address (what NCCL picks by default);
//              InfiniBand: a port GID (gids/0) and a LID
//   mtu        RoCE: the netdev's MTU at least [health] MinMtu= and the same as the other compute
//              ports' (the MTU most of them use; a tie goes to the larger); InfiniBand: an active
//              MTU of 4096 where verbs gives it
//   uverbs     the device's uverbs device in sysfs and its /dev/infiniband node
//   umad       InfiniBand only: the port's umad device in sysfs and its /dev/infiniband node, and
//              its issm likewise where the node's InfiniBand ports have issm nodes at all (a
//              platform may make none by design: GB300 nodes; no port attribute tells), never
//              of a multi-plane port (cap_mask IsSMDisabled: its SMI device's planes have them)
//   gpudirect  a peer memory client loaded, or the dma-buf path (gpudirect_evidence.hpp)
//   acs        no ACS P2P Request/Completion Redirect on the bridges between the NIC and a GPU
//              below the same switch (acs_config.hpp)
//   numa       the NIC on the NUMA node of one of the GPUs it serves (gpu_pairing.hpp)
//   gpu_path   where the NIC and its GPUs meet: below a shared PCIe bridge (NCCL's PIX/PXB), or
//              only at the root complex, so GPUDirect RDMA traffic crosses the CPU: ok either
//              way, the second with a note, since the board's wiring, not a fault, decides it
#pragma once

#include "model/inventory.hpp"
#include "model/readiness.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace nicd::health {

// The RoCE path MTU a netdev MTU allows: the largest IB MTU (256..4096) that fits once the
// headers a RoCE packet may carry are taken off, as the kernel works it out (iboe_get_mtu in
// include/rdma/ib_addr.h, which mlx5 reports as the port's active MTU): GRH 40 + UDP 8 + BTH 12 +
// XRC extension 4 + AtomicETH 28 + ICRC 4 = 96 bytes (include/rdma/ib_pack.h). 0 below 352.
uint32_t roceMtuOf(uint32_t netdev_mtu);
inline constexpr uint32_t kRoceHeaderBytes = 96;
// The smallest netdev MTU that gives a 4096-byte RoCE MTU: 4192 ([health] MinMtu='s default).
inline constexpr uint32_t kMinMtuFor4096 = 4096 + kRoceHeaderBytes;

// The MTU most of `mtus` share; a tie goes to the larger. nullopt when empty.
std::optional<uint32_t> referenceMtu(const std::vector<uint32_t>& mtus);

// What a check says: its name, its verdict and what it saw (the one way each check answers).
inline ReadyCheck readyCheck(const char* check, ReadyCheck::Verdict v, std::string saw)
{
    return {check, v, std::move(saw)};
}

ReadyCheck checkGid(const Port& port, const PortReadinessInputs* in);
// `reference`: the compute RoCE ports' common MTU (referenceMtu over every judged RoCE port).
ReadyCheck checkMtu(const Port& port, const PortReadinessInputs* in,
                    std::optional<uint32_t> reference, uint32_t min_mtu);
ReadyCheck checkUverbs(const Device& device, const VerbsDeviceInputs* in);
// `node_issm`: some InfiniBand port of the node has its issm device and node (the platform makes
// them, so each port should have its own).
ReadyCheck checkUmad(const Device& device, const Port& port, const PortReadinessInputs* in,
                     bool node_issm);
// `node_has_gpus`: the node has NVIDIA GPUs (else there is nothing to be direct to).
// The checks about the GPUs (readiness_gpu_checks.cpp).
ReadyCheck checkGpuDirect(const GpuDirectInputs* in, bool node_has_gpus);
ReadyCheck checkAcs(const Device& device, const std::vector<GpuPairing>* pairs,
                    const std::map<std::string, AcsInputs>& bridges);
ReadyCheck checkNuma(const Device& device, const std::vector<GpuPairing>* pairs);
ReadyCheck checkGpuPath(const Device& device, const std::vector<GpuPairing>* pairs);

// The devices judged: compute devices but VFs (a VF is judged where it is used).
bool judgedForReadiness(const Device& d);

// Every active port of every compute device but VFs, each with its checks in the order above.
using PortChecks = std::map<std::pair<std::string, uint32_t>, std::vector<ReadyCheck>>;
PortChecks judgeReadiness(const Inventory& inventory, const ReadinessInputs& in, uint32_t min_mtu);

// The condition code a failed check raises: "ready.no_roce_gid", ...
const char* readyCode(const std::string& check);

} // namespace nicd::health
