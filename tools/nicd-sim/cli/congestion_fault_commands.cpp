// inject DIR congest-ecn|congest-pfc-only|pause-storm|lossy DEV, and each one's <fault>-clear DEV.
#include "cli/registry.hpp"

namespace nicd::sim::cli {

// NOLINTNEXTLINE(cert-err58-cpp): registered before main; a failure there is fatal anyway
[[maybe_unused]] static const bool nicd_sim_congestion_faults = registerToggleFaults(
    {
        {"congest-ecn", "ECN marks and CNPs flow on port 1, pauses stay low (DCQCN at work)",
         &sim::congestEcn},
        {"congest-pfc-only", "port 1 is paused 15% of the time with no ECN mark and no CNP",
         &sim::congestPfcOnly},
        {"pause-storm", "port 1 is paused 90% of the time and the driver warns of a pause storm",
         &sim::pauseStorm},
        {"lossy", "port 1 sees out-of-sequence packets on the lossless priority", &sim::lossy},
    },
    300);

} // namespace nicd::sim::cli
