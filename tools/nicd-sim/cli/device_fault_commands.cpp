// inject DIR remove|restore DEV; inject DIR stall|unstall DEV
#include "cli/args.hpp"
#include "cli/registry.hpp"

namespace nicd::sim::cli {

namespace {

// A fault that takes only DEV.
Setup deviceOnly(void (*fn)(const fs::path&, const std::string&))
{
    return [fn](CLI::App& cmd) -> Action {
        auto a = std::make_shared<DeviceArgs>(cmd);
        return [a, fn](const fs::path& dir) { fn(dir, a->dev); };
    };
}

} // namespace

// NOLINTNEXTLINE(cert-err58-cpp): registered before main; a failure there is fatal anyway
NICD_SIM_FAULT(remove, "remove",
               "the RDMA device disappears from /sys/class/infiniband and its PCI function",
               deviceOnly(&sim::remove));
// NOLINTNEXTLINE(cert-err58-cpp): registered before main; a failure there is fatal anyway
NICD_SIM_FAULT(restore, "restore", "a removed device comes back, identical",
               deviceOnly(&sim::restore));
// NOLINTNEXTLINE(cert-err58-cpp): registered before main; a failure there is fatal anyway
NICD_SIM_FAULT(stall, "stall",
               "the device's counters/ files become FIFOs: reads block like a wedged firmware",
               deviceOnly(&sim::stall));
// NOLINTNEXTLINE(cert-err58-cpp): registered before main; a failure there is fatal anyway
NICD_SIM_FAULT(unstall, "unstall", "counters/ reads answer again (blocked readers get the value)",
               deviceOnly(&sim::unstall));

} // namespace nicd::sim::cli
