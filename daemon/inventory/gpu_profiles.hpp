// What an NVIDIA GPU on the PCI bus says about the RDMA ports its node carries: the table behind
// [health] ExpectPorts=auto, keyed by the PCI device ID (the IDs and names of the PCI ID database,
// pci.ids). docs/conditions.md ("Expected inventory") gives the table with its sources and why
// each row expects what it does. Pure.
#pragma once

#include <cstdint>
#include <string_view>

namespace nicd {

struct GpuProfile {
    uint16_t device_id; // the PCI device ID under vendor 0x10de
    const char* name;   // "NVIDIA H100 SXM5 80GB"
    uint32_t per_gpu;   // compute ports per GPU: 1 on HGX-class boards (a NIC beside each GPU)
    uint32_t per_node;  // otherwise at least this many compute ports on the node
    uint32_t min_gbps;  // each at least this fast; 0: any rate
};

// The profile of the GPU whose sysfs `device` attribute reads `device_id` ("0x2330"), or
// nullptr for a GPU nicd expects nothing of (inference and graphics cards, unknown IDs).
const GpuProfile* gpuProfile(std::string_view device_id);

} // namespace nicd
