// What an NVIDIA GPU on the PCI bus says about the RDMA ports its node carries: the table behind
// [health] ExpectPorts=auto, keyed by the PCI device ID (the IDs and names of the PCI ID database,
// pci.ids). docs/conditions.md ("Expected inventory") gives the table with its sources and why
// each row expects what it does. Pure.
#pragma once

#include <cstdint>
#include <string_view>

namespace nicd::inventory {

enum class GpuShape : uint8_t {
    // HGX-class boards: the compute NICs sit beside the GPUs. The designs that exist: a port per
    // GPU at `gbps`, a port per two GPUs at `gbps`, two ports per GPU at half of it.
    PerGpu,
    // At least one compute port on the node at `gbps` (boards built in many designs).
    AtLeastOne,
};

struct GpuProfile {
    uint16_t device_id; // the PCI device ID under vendor 0x10de
    const char* name;   // "NVIDIA H100 SXM5 80GB"
    GpuShape shape;
    uint32_t gbps; // the rate of a compute port of the design; 0: any rate
};

// The profile of the GPU whose sysfs `device` attribute reads `device_id` ("0x2330"), or
// nullptr for a GPU nicd expects nothing of (PCIe cards, whose servers carry any number of NICs
// or none but the front end; inference and graphics cards; unknown IDs).
const GpuProfile* gpuProfile(std::string_view device_id);

} // namespace nicd::inventory
