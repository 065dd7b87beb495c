#include "cli/gpu_node_options.hpp"

#include <fmt/format.h>

#include <memory>

namespace nicd::sim::cli {

std::function<void(CreateOptions&)> addGpuNodeOptions(CLI::App& cmd, CreateOptions& o)
{
    auto profile = std::make_shared<std::string>();
    auto* p = cmd.add_option("--profile", *profile,
                             fmt::format("a whole GPU node of that shape: 8 GPUs (4 on a GB200 or "
                                         "GB300 tray), a compute NIC beside each, 2 storage "
                                         "ports, a management NIC; hgx-h100-4nic a NIC per two "
                                         "GPUs, hgx-h100-16x200 two per GPU at 200G, pcie-h100 "
                                         "PCIe cards and no compute NIC, vm-h100 a cloud VM "
                                         "({})",
                                         fmt::join(profiles(), ", ")))
                  ->check(CLI::IsMember(profiles()));
    auto* gpus = cmd.add_option("--gpus", o.gpus,
                                fmt::format("a GPU node of N GPUs (0..{}), a compute NIC beside "
                                            "each, 2 storage ports and a management NIC",
                                            kMaxGpus))
                     ->check(CLI::Range(0, kMaxGpus))
                     ->excludes(p);
    cmd.add_option("--gpu-model", o.gpu_model,
                   fmt::format("the GPUs' model, by PCI device ID ({}; default h100)",
                               fmt::join(gpuModels(), ", ")))
        ->check(CLI::IsMember(gpuModels()))
        ->excludes(p);
    cmd.add_option("--compute-nics", o.compute_nics,
                   fmt::format("compute NICs of a GPU node (0..{}; default one per GPU)", kMaxGpus))
        ->check(CLI::Range(0, kMaxGpus));
    cmd.add_option("--storage-ports", o.storage_ports,
                   "ports of a GPU node's storage card (0..2, default 2)")
        ->check(CLI::Range(0, 2));
    cmd.add_option("--storage-cards", o.storage_cards,
                   fmt::format("storage cards of a GPU node, each with --storage-ports ports "
                               "(0..{}, default 1)",
                               kMaxStorageCards))
        ->check(CLI::Range(0, kMaxStorageCards));
    cmd.add_flag("--infiniband", o.infiniband,
                 "a GPU node's compute NICs on an InfiniBand fabric (IPoIB netdevs ib0, ib1, ...) "
                 "instead of RoCE");
    (void)gpus;
    return [profile](CreateOptions& options) {
        if (!profile->empty())
            applyProfile(options, *profile);
    };
}

} // namespace nicd::sim::cli
