// inject DIR errors DEV COUNTER N | rate DEV COUNTER PER_SECOND | wrap DEV COUNTER
//        | reset-counters DEV | refuse[-clear] DEV COUNTER | no-pma DEV COUNTER
//                                                                    ([--port P] where it applies)
#include "cli/args.hpp"
#include "cli/registry.hpp"

namespace nicd::sim::cli {

// NOLINTNEXTLINE(cert-err58-cpp): registered before main; a failure there is fatal anyway
NICD_SIM_FAULT(errors, "errors", "a burst: add N to a counter", [](CLI::App& cmd) {
    auto a = std::make_shared<CounterArgs>(cmd);
    auto n = std::make_shared<uint64_t>(0);
    cmd.add_option("N", *n, "how much to add")->required();
    return [a, n](const fs::path& dir) { addToCounter(dir, a->dev, a->counter, *n, a->port); };
});

// NOLINTNEXTLINE(cert-err58-cpp): registered before main; a failure there is fatal anyway
NICD_SIM_FAULT(rate, "rate", "a counter climbs by PER_SECOND on every tick (0 stops it)",
               [](CLI::App& cmd) {
                   auto a = std::make_shared<CounterArgs>(cmd);
                   auto rate = std::make_shared<double>(0);
                   cmd.add_option("PER_SECOND", *rate, "increase per second")
                       ->required()
                       ->check(CLI::NonNegativeNumber);
                   return [a, rate](const fs::path& dir) {
                       setRate(dir, a->dev, a->counter, *rate, a->port);
                   };
               });

// NOLINTNEXTLINE(cert-err58-cpp): registered before main; a failure there is fatal anyway
NICD_SIM_FAULT(wrap, "wrap",
               "set a counter of 32 bits or more to 2^32-1000 and make it wrap at 2^32 from now "
               "on",
               [](CLI::App& cmd) {
                   auto a = std::make_shared<CounterArgs>(cmd);
                   return [a](const fs::path& dir) { wrap(dir, a->dev, a->counter, a->port); };
               });

// NOLINTNEXTLINE(cert-err58-cpp): registered before main; a failure there is fatal anyway
NICD_SIM_FAULT(reset_counters, "reset-counters",
               "every counter of the device back to 0 (driver reload, admin clear)",
               [](CLI::App& cmd) {
                   auto a = std::make_shared<DeviceArgs>(cmd);
                   return [a](const fs::path& dir) { resetCounters(dir, a->dev); };
               });

namespace {
// refuse DEV COUNTER [--port P] (`on`), or refuse-clear.
Setup refusal(bool on)
{
    return [on](CLI::App& cmd) -> Action {
        auto a = std::make_shared<CounterArgs>(cmd);
        return
            [a, on](const fs::path& dir) { refuseCounter(dir, a->dev, a->counter, on, a->port); };
    };
}
} // namespace

// NOLINTNEXTLINE(cert-err58-cpp): registered before main; a failure there is fatal anyway
NICD_SIM_FAULT(refuse, "refuse",
               "the firmware refuses a counters/ or hw_counters/ file: its reads fail with EACCES "
               "(mode 0000; nicd runs without CAP_DAC_OVERRIDE)",
               refusal(true));
// NOLINTNEXTLINE(cert-err58-cpp): registered before main; a failure there is fatal anyway
NICD_SIM_FAULT(refuse_clear, "refuse-clear", "clears refuse: the file reads again", refusal(false));

// NOLINTNEXTLINE(cert-err58-cpp): registered before main; a failure there is fatal anyway
NICD_SIM_FAULT(no_pma, "no-pma",
               "a counters/ file reads 'N/A (no PMA)' from now on, as the kernel prints a "
               "counter of a driver without a PMA agent (irdma, i40iw)",
               [](CLI::App& cmd) {
                   auto a = std::make_shared<CounterArgs>(cmd);
                   return
                       [a](const fs::path& dir) { noPmaCounter(dir, a->dev, a->counter, a->port); };
               });

} // namespace nicd::sim::cli
