// nicd-sim create DIR [--devices N] [--channels N] [--vendor V[,V]] [--driver-ready] [--force]
// [--seed S] [--boot-id ID] [--profile P | --gpus N [--gpu-model M]] [--compute-nics N]
// [--storage-ports N] [--storage-cards N]
#include "cli/gpu_node_options.hpp"
#include "cli/registry.hpp"
#include "neighbors/neighbor_twin.hpp"

#include <fmt/format.h>

namespace nicd::sim::cli {

// NOLINTNEXTLINE(cert-err58-cpp): registered before main; a failure there is fatal anyway
NICD_SIM_COMMAND(
    create, "create", "build a simulated node under DIR",
    [](CLI::App& cmd) {
        auto o = std::make_shared<CreateOptions>();
        cmd.add_option("--devices", o->devices,
                       fmt::format("N RoCE PFs, all up, instead of the default mixed node (1..{})",
                                   kMaxDevices))
            ->check(CLI::Range(1, kMaxDevices));
        cmd.add_option("--channels", o->channels,
                       fmt::format("channels of every mlx5 netdev, combined rings of every "
                                   "bnxt_en one: its ethtool statistics print each one's (1..{}, "
                                   "default {}: a ConnectX-7 in a host with 64 or more CPUs, a "
                                   "BCM57608 in one with 64 cores)",
                                   kMaxChannels, kDefaultChannels))
            ->check(CLI::Range(1U, kMaxChannels));
        cmd.add_option("--vendor", o->vendors,
                       "the RoCE PFs' vendors, comma-separated: mlx5 (ConnectX-7, the default), "
                       "bnxt (Broadcom BCM57608 on bnxt_en/bnxt_re); the PFs (the default node's "
                       "four compute NICs and uncabled one, or the N of --devices) are dealt to "
                       "them in that order, in blocks as even as possible: mlx5,bnxt gives 3 "
                       "mlx5 and 2 bnxt of 5");
        cmd.add_flag("--driver-ready", o->driver_ready,
                     "create /run/mellanox/drivers/.driver-ready");
        cmd.add_flag("--force", o->force, "replace a node already in DIR");
        cmd.add_option("--seed", o->seed, "seed of the per-device traffic load (default 1)");
        cmd.add_option("--boot-id", o->boot_id,
                       "the node's boot ID (proc/sys/kernel/random/boot_id)");
        auto gpu_node = addGpuNodeOptions(cmd, *o);
        return [o, gpu_node](const fs::path& dir) {
            gpu_node(*o);
            create(dir, *o);
            createNeighborTwin(dir); // lldpd's twin: nicd_sim_lib cannot write lldpcli's JSON
        };
    },
    10);

} // namespace nicd::sim::cli
