// inject DIR link-down|link-up|link-drop|link-drop-clear DEV [--port P];
// inject DIR flap DEV [--times N] [--down-sec S] [--up-sec S] [--port P];
// inject DIR ipoib-down|ipoib-down-clear DEV
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
NICD_SIM_FAULT(link_drop, "link-drop",
               "the link drops and never trains again: state DOWN, phys_state Polling, netdev "
               "carrier down; link_downed does not move",
               [](CLI::App& cmd) {
                   auto a = std::make_shared<DeviceArgs>(cmd, kEveryPort);
                   return [a](const fs::path& dir) { linkDrop(dir, a->dev, a->port); };
               });

// NOLINTNEXTLINE(cert-err58-cpp): registered before main; a failure there is fatal anyway
NICD_SIM_FAULT(link_drop_clear, "link-drop-clear",
               "the dropped link trains again (the cable or switch port fixed)", [](CLI::App& cmd) {
                   auto a = std::make_shared<DeviceArgs>(cmd, kEveryPort);
                   return [a](const fs::path& dir) { linkUp(dir, a->dev, a->port); };
               });

// NOLINTNEXTLINE(cert-err58-cpp): registered before main; a failure there is fatal anyway
NICD_SIM_FAULT(
    flap, "flap",
    "the link goes down and up N times (default 3), ending up; at once, or each down held "
    "--down-sec and each up --up-sec (real seconds, for a watching nicd)",
    [](CLI::App& cmd) {
        auto a = std::make_shared<DeviceArgs>(cmd, kEveryPort);
        auto times = std::make_shared<int>(3);
        auto down_sec = std::make_shared<double>(0);
        auto up_sec = std::make_shared<double>(0);
        cmd.add_option("--times", *times, "down-and-up cycles")->check(CLI::Range(1, 1000));
        cmd.add_option("--down-sec", *down_sec, "seconds each down lasts (default 0)")
            ->check(CLI::Range(0.0, 3600.0));
        cmd.add_option("--up-sec", *up_sec, "seconds each up between downs lasts (default 0)")
            ->check(CLI::Range(0.0, 3600.0));
        return [a, times, down_sec, up_sec](const fs::path& dir) {
            flap(dir, a->dev, *times, a->port, *down_sec, *up_sec);
        };
    });

// NOLINTNEXTLINE(cert-err58-cpp): registered before main; a failure there is fatal anyway
NICD_SIM_FAULT(ipoib_down, "ipoib-down",
               "an InfiniBand device's IPoIB netdev loses its carrier, admin up, the port staying "
               "ACTIVE (its broadcast group join failed)",
               [](CLI::App& cmd) {
                   auto a = std::make_shared<DeviceArgs>(cmd);
                   return [a](const fs::path& dir) { ipoibDown(dir, a->dev, true); };
               });

// NOLINTNEXTLINE(cert-err58-cpp): registered before main; a failure there is fatal anyway
NICD_SIM_FAULT(ipoib_down_clear, "ipoib-down-clear", "the IPoIB netdev joins and comes up",
               [](CLI::App& cmd) {
                   auto a = std::make_shared<DeviceArgs>(cmd);
                   return [a](const fs::path& dir) { ipoibDown(dir, a->dev, false); };
               });

} // namespace nicd::sim::cli
