// inject DIR rename DEV NEW
#include "cli/args.hpp"
#include "cli/registry.hpp"

namespace nicd::sim::cli {

// NOLINTNEXTLINE(cert-err58-cpp): registered before main; a failure there is fatal anyway
NICD_SIM_FAULT(rename, "rename",
               "the RDMA device gets a new name, as udev's rdma_rename gives it (mlx5_0 -> "
               "rocep26s0f0); its PCI function, netdevs and counters stay",
               [](CLI::App& cmd) {
                   auto a = std::make_shared<DeviceArgs>(cmd);
                   auto name = std::make_shared<std::string>();
                   cmd.add_option("NEW", *name, "the new name, e.g. rocep26s0f0")->required();
                   return [a, name](const fs::path& dir) { sim::rename(dir, a->dev, *name); };
               });

} // namespace nicd::sim::cli
