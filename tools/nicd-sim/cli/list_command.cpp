// nicd-sim list DIR
#include "cli/registry.hpp"

#include <cstdio>

namespace nicd::sim::cli {

// NOLINTNEXTLINE(cert-err58-cpp): registered before main; a failure there is fatal anyway
NICD_SIM_COMMAND(
    list, "list", "one line per RDMA device: name, role, port states, netdevs, PCI",
    [](CLI::App&) {
        return [](const fs::path& dir) {
            for (const auto& line : list(dir))
                std::printf("%s\n", line.c_str());
        };
    },
    40);

} // namespace nicd::sim::cli
