// inject DIR congest-ecn|congest-pfc-only|pause-storm|lossy DEV, and each one's <fault>-clear DEV.
#include "cli/args.hpp"
#include "cli/registry.hpp"

namespace nicd::sim::cli {

namespace {

Setup toggle(void (*fn)(const fs::path&, const std::string&, bool), bool on)
{
    return [fn, on](CLI::App& cmd) -> Action {
        auto a = std::make_shared<DeviceArgs>(cmd);
        return [a, fn, on](const fs::path& dir) { fn(dir, a->dev, on); };
    };
}

struct Scenario {
    const char* name;
    const char* help;
    void (*fn)(const fs::path&, const std::string&, bool);
};

const Scenario kScenarios[] = {
    {"congest-ecn", "ECN marks and CNPs flow on port 1, pauses stay low (DCQCN at work)",
     &sim::congestEcn},
    {"congest-pfc-only", "port 1 is paused 15% of the time with no ECN mark and no CNP",
     &sim::congestPfcOnly},
    {"pause-storm", "port 1 is paused 90% of the time and the driver warns of a pause storm",
     &sim::pauseStorm},
    {"lossy", "port 1 sees out-of-sequence packets on the lossless priority", &sim::lossy},
};

bool registerAll()
{
    int order = 300;
    for (const auto& f : kScenarios) {
        registerFault({f.name, f.help, toggle(f.fn, true), order++});
        registerFault({std::string(f.name) + "-clear",
                       std::string("clears ") + f.name + ": the healthy rates again",
                       toggle(f.fn, false), order++});
    }
    return true;
}

} // namespace

// NOLINTNEXTLINE(cert-err58-cpp): registered before main; a failure there is fatal anyway
[[maybe_unused]] static const bool nicd_sim_congestion_faults = registerAll();

} // namespace nicd::sim::cli
