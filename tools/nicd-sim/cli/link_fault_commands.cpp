// inject DIR link-down|link-up DEV [--port P]; inject DIR flap DEV [--times N] [--port P]
#include "cli/args.hpp"
#include "cli/registry.hpp"

namespace nicd::sim::cli {

namespace {
constexpr const char* kEveryPort = "port number (default: every port)";
}

// NOLINTNEXTLINE(cert-err58-cpp): registered before main; a failure there is fatal anyway
NICD_SIM_FAULT(link_down, "link-down",
               "the port loses its link: state, phys_state, netdev operstate/carrier; bumps "
               "link_downed",
               [](CLI::App& cmd) {
                   auto a = std::make_shared<DeviceArgs>(cmd, kEveryPort);
                   return [a](const fs::path& dir) { linkDown(dir, a->dev, a->port); };
               });

// NOLINTNEXTLINE(cert-err58-cpp): registered before main; a failure there is fatal anyway
NICD_SIM_FAULT(link_up, "link-up", "the port's link comes back", [](CLI::App& cmd) {
    auto a = std::make_shared<DeviceArgs>(cmd, kEveryPort);
    return [a](const fs::path& dir) { linkUp(dir, a->dev, a->port); };
});

// NOLINTNEXTLINE(cert-err58-cpp): registered before main; a failure there is fatal anyway
NICD_SIM_FAULT(
    flap, "flap", "the link goes down and up N times (default 3), ending up", [](CLI::App& cmd) {
        auto a = std::make_shared<DeviceArgs>(cmd, kEveryPort);
        auto times = std::make_shared<int>(3);
        cmd.add_option("--times", *times, "down-and-up cycles")->check(CLI::Range(1, 1000));
        return [a, times](const fs::path& dir) { flap(dir, a->dev, *times, a->port); };
    });

} // namespace nicd::sim::cli
