// inject DIR neighbor DEV SWITCH PORT | neighbor-clear DEV | neighbor-add DEV SWITCH PORT |
// neighbor-add-clear DEV | cable-swap DEV1 DEV2 | cable-swap-clear DEV1 DEV2 |
// switch-pfc DEV PRIOS | switch-pfc-clear DEV | lldpd-stop | lldpd-stop-clear: what the host's
// lldpd hears on each port (neighbors/neighbor_twin.hpp).
#include "cli/args.hpp"
#include "cli/registry.hpp"
#include "neighbors/neighbor_twin.hpp"
#include "neighbors/switch_tlvs.hpp"

namespace nicd::sim::cli {

namespace {

struct SwitchPortArgs : DeviceArgs {
    std::string switch_name;
    std::string port;
    explicit SwitchPortArgs(CLI::App& cmd) : DeviceArgs(cmd)
    {
        cmd.add_option("SWITCH", switch_name, "the switch's system name, e.g. leaf-03")->required();
        cmd.add_option("PORT", port, "its port, e.g. swp7")->required();
    }
};

Setup switchPortSetup(void (*fn)(const fs::path&, const std::string&, const std::string&,
                                 const std::string&))
{
    return [fn](CLI::App& cmd) -> Action {
        auto a = std::make_shared<SwitchPortArgs>(cmd);
        return [a, fn](const fs::path& dir) { fn(dir, a->dev, a->switch_name, a->port); };
    };
}

Setup deviceSetup(void (*fn)(const fs::path&, const std::string&))
{
    return [fn](CLI::App& cmd) -> Action {
        auto a = std::make_shared<DeviceArgs>(cmd);
        return [a, fn](const fs::path& dir) { fn(dir, a->dev); };
    };
}

Setup cableSwapSetup()
{
    return [](CLI::App& cmd) -> Action {
        auto a = std::make_shared<DeviceArgs>(cmd);
        auto other = std::make_shared<std::string>();
        cmd.add_option("DEV2", *other, "the other RDMA device")->required();
        return [a, other](const fs::path& dir) { sim::cableSwap(dir, a->dev, *other); };
    };
}

Setup switchPfcSetup()
{
    return [](CLI::App& cmd) -> Action {
        auto a = std::make_shared<DeviceArgs>(cmd);
        auto prios = std::make_shared<std::string>();
        cmd.add_option("PRIOS", *prios, "PFC priorities, comma-separated (3,4), or none")
            ->required();
        return [a, prios](const fs::path& dir) {
            sim::switchPfcSet(dir, a->dev, parsePriorities(*prios));
        };
    };
}

Setup lldpdStopSetup(bool on)
{
    return [on](CLI::App&) -> Action {
        return [on](const fs::path& dir) { sim::lldpdStop(dir, on); };
    };
}

} // namespace

// NOLINTNEXTLINE(cert-err58-cpp): registered before main; a failure there is fatal anyway
NICD_SIM_FAULT(neighbor, "neighbor",
               "DEV's port is cabled to SWITCH's PORT: lldpd hears that switch port there (with "
               "the TLVs it heard)",
               switchPortSetup(&sim::neighborSet), 400);
// NOLINTNEXTLINE(cert-err58-cpp): registered before main; a failure there is fatal anyway
NICD_SIM_FAULT(neighbor_clear, "neighbor-clear", "DEV's port hears no neighbour",
               deviceSetup(&sim::neighborClear), 401);
// NOLINTNEXTLINE(cert-err58-cpp): registered before main; a failure there is fatal anyway
NICD_SIM_FAULT(neighbor_add, "neighbor-add",
               "a further neighbour, SWITCH's PORT, heard on DEV's port (a hub, or a switch port "
               "leaking LLDP)",
               switchPortSetup(&sim::neighborAdd), 402);
// NOLINTNEXTLINE(cert-err58-cpp): registered before main; a failure there is fatal anyway
NICD_SIM_FAULT(neighbor_add_clear, "neighbor-add-clear",
               "clears neighbor-add: DEV's port hears its first neighbour only",
               deviceSetup(&sim::neighborAddClear), 403);
// NOLINTNEXTLINE(cert-err58-cpp): registered before main; a failure there is fatal anyway
NICD_SIM_FAULT(cable_swap, "cable-swap",
               "the neighbours of DEV's and DEV2's ports swapped (two cables swapped at the "
               "patch panel)",
               cableSwapSetup(), 404);
// NOLINTNEXTLINE(cert-err58-cpp): registered before main; a failure there is fatal anyway
NICD_SIM_FAULT(cable_swap_clear, "cable-swap-clear",
               "clears cable-swap: the two cables swapped back", cableSwapSetup(), 405);
// NOLINTNEXTLINE(cert-err58-cpp): registered before main; a failure there is fatal anyway
NICD_SIM_FAULT(switch_pfc, "switch-pfc",
               "DEV's switch port advertises PFC on PRIOS (3,4 or none) instead of 3",
               switchPfcSetup(), 406);
// NOLINTNEXTLINE(cert-err58-cpp): registered before main; a failure there is fatal anyway
NICD_SIM_FAULT(switch_pfc_clear, "switch-pfc-clear",
               "clears switch-pfc: DEV's switch port sends the default DCBX TLVs again",
               deviceSetup(&sim::switchPfcClear), 407);
// NOLINTNEXTLINE(cert-err58-cpp): registered before main; a failure there is fatal anyway
NICD_SIM_FAULT(lldpd_stop, "lldpd-stop",
               "the host's lldpd stops (node-wide): nicd hears no neighbour anywhere",
               lldpdStopSetup(true), 410);
// NOLINTNEXTLINE(cert-err58-cpp): registered before main; a failure there is fatal anyway
NICD_SIM_FAULT(lldpd_stop_clear, "lldpd-stop-clear",
               "clears lldpd-stop: lldpd runs again and hears what it heard", lldpdStopSetup(false),
               411);

} // namespace nicd::sim::cli
