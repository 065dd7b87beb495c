// nicd-sim reboot DIR [--boot-id ID]
#include "cli/registry.hpp"

namespace nicd::sim::cli {

// NOLINTNEXTLINE(cert-err58-cpp): registered before main; a failure there is fatal anyway
NICD_SIM_COMMAND(
    reboot, "reboot",
    "the node boots again: a new boot ID; a removed device stays removed (its firmware did not "
    "come up)",
    [](CLI::App& cmd) {
        auto id = std::make_shared<std::string>();
        cmd.add_option("--boot-id", *id, "the new boot ID (default: the current one's next)");
        return [id](const fs::path& dir) { reboot(dir, *id); };
    },
    35);

} // namespace nicd::sim::cli
