// Expected inventory ([health] ExpectPorts=): the RDMA ports a node must carry, by role, and how
// many it has. Pure: the GPUs, devices and netdev states come from the snapshot.
//
// What is expected: `none` nothing; listed items what they say, always; `auto` what the NVIDIA
// GPUs say (inventory/gpu_profiles.hpp). GPUs of an HGX-class profile allow the board designs
// that exist: a compute port per two GPUs, one per GPU, or two per GPU at half the rate (the
// bandwidth per GPU is what a design is, not the port count times a rate); the node is judged
// against the design with the fewest ports that is at least as many as it has (a count that
// fits none is judged against the nearest above it: 8 GPUs with 7 ports, or none, are short of
// 8 or 4), at the lowest rate any of them asks. Other known GPUs ask at least one compute port;
// PCIe cards and GPUs without a profile nothing (unplacedGpus() says why, for a log line).
//
// What is counted: the ports of the role's devices, a VF's excepted (its link is its PF's); a
// RoCE LAG device is one port, as NCCL sees it. A port is up when its IB state is ACTIVE (or
// ACTIVE_DEFER) and none of its netdevs is known to be other than up: a compute port that is
// down counts as short, like a NIC that is not there. An up port is at rate when its rate is at
// least the expected one (a rate that could not be read is not held against it). A device that
// IgnoreDevices= takes out of sight is not counted (nothing of it is read), and a short node's
// sentence names it.
#pragma once

#include "config/config.hpp"
#include "model/health.hpp"
#include "model/snapshot.hpp"

#include <string>
#include <vector>

namespace nicd::health {

// The expectations of `setting` on a node with `gpus`, by role (found counts left at 0).
std::vector<InventoryCheck> expectedPorts(const ExpectPorts& setting,
                                          const std::vector<GpuFunction>& gpus);

// The NVIDIA GPUs of `gpus` that `auto` expects nothing of, in words for a log line ("2 ×
// GPU 0x2331 (no profile: a PCIe card's server carries any number of NICs)"); "" when
// every GPU has a profile, or there is none.
std::string unplacedGpus(const std::vector<GpuFunction>& gpus);

// Counts, for each check, the ports of its role in `snap` (choosing the design of an `auto`
// check by them), the up ones and those at its rate.
void countPorts(std::vector<InventoryCheck>& checks, const Snapshot& snap);

// Whether the node has fewer up ports of the role than expected / fewer at the rate.
inline bool isShort(const InventoryCheck& c)
{
    return c.up < c.expected;
}
// How many of the expected ports are not there at all (a NIC gone, not a port down).
inline uint32_t missing(const InventoryCheck& c)
{
    return c.present < c.expected ? c.expected - c.present : 0;
}
inline bool isSlow(const InventoryCheck& c)
{
    return !c.slow.empty() && c.at_rate < c.expected;
}

// In words, what was expected and what was found: "expected 8 compute ports at ≥ 400 Gb/s
// (auto: 8 × NVIDIA H100 SXM5 80GB), found 7 up (mlx5_3/1 is down)".
std::string describe(const InventoryCheck& c);

} // namespace nicd::health
