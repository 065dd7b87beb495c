// What the node's files say of GPUDirect RDMA, the two ways NCCL registers GPU memory with a NIC:
//   - a peer memory client: NCCL looks for /sys/kernel/mm/memory_peers/nv_mem/version (MOFED's
//     nv_peer_mem), .../nv_mem_nc/version or /sys/module/nvidia_peermem/version (the driver's
//     nvidia-peermem, from R470) (ibGdrSupportInitOnce, src/transport/net_ib.cc);
//   - dma-buf: the kernel imports a dma-buf into an RDMA memory region from Linux 5.12 (commit
//     bfe0cc6, "RDMA/uverbs: Add uverbs command for dma-buf based MR registration"), and the
//     NVIDIA driver exports GPU memory as a dma-buf with its open kernel modules, published from
//     the R515 branch (NVIDIA driver installation guide, "Kernel Modules"; the GPU Operator
//     enables DMA-BUF only with them). NCCL then also asks CUDA (11.7 or later) for
//     CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED, which no file shows: where these files say yes,
//     NCCL may still say no, never the other way round.
// /proc/driver/nvidia/version says which module is loaded: "NVRM version: NVIDIA UNIX Open Kernel
// Module for x86_64  550.54.15  Release Build ..." or "NVRM version: NVIDIA UNIX x86_64 Kernel
// Module  535.183.01  Sun May 12 ...". The parsers are pure; readGpuDirect reads the files.
#pragma once

#include "config/host_paths.hpp"
#include "model/readiness.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace nicd::readiness {

struct NvidiaModule {
    bool open = false;
    std::string version;            // "550.54.15"; empty when the line names none
    std::optional<unsigned> branch; // its first number
};
// The first line of /proc/driver/nvidia/version; nullopt when it is not the NVIDIA driver's.
std::optional<NvidiaModule> parseNvidiaVersion(std::string_view text);

// /proc/sys/kernel/osrelease: "6.8.0-45-generic" -> (6, 8); nullopt for anything else.
std::optional<std::pair<unsigned, unsigned>> parseKernelRelease(std::string_view text);

// The paths NCCL checks for a peer memory client, in its order.
inline constexpr const char* kPeerMemFiles[] = {
    "/sys/kernel/mm/memory_peers/nv_mem/version",
    "/sys/kernel/mm/memory_peers/nv_mem_nc/version",
    "/sys/module/nvidia_peermem/version",
};

GpuDirectInputs readGpuDirect(const HostPaths& paths);

} // namespace nicd::readiness
