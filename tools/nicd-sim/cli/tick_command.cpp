// nicd-sim tick DIR [--seconds S]
#include "cli/registry.hpp"

namespace nicd::sim::cli {

// NOLINTNEXTLINE(cert-err58-cpp): registered before main; a failure there is fatal anyway
NICD_SIM_COMMAND(
    tick, "tick", "advance every counter as if S seconds passed",
    [](CLI::App& cmd) {
        auto seconds = std::make_shared<double>(1.0);
        cmd.add_option("--seconds", *seconds, "seconds to simulate (default 1)")
            ->check(CLI::Range(0.0, 1e7));
        return [seconds](const fs::path& dir) { tick(dir, *seconds); };
    },
    20);

} // namespace nicd::sim::cli
