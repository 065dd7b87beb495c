// inject DIR smi-add DEV [PLANES] | smi-add-clear DEV | plane-downtrain DEV PLANE |
// plane-downtrain-clear DEV [PLANE]: a ConnectX-8's multi-plane port seen through its SMI
// sub-device, and one of its planes trained down (plane_faults.cpp).
#include "cli/args.hpp"
#include "cli/registry.hpp"

namespace nicd::sim::cli {

namespace {

Setup smiAddSetup(bool on)
{
    return [on](CLI::App& cmd) -> Action {
        auto a = std::make_shared<DeviceArgs>(cmd);
        auto planes = std::make_shared<int>(4);
        if (on)
            cmd.add_option("PLANES", *planes, "planes of its port (default 4)")
                ->check(CLI::Range(2, 8));
        return [a, planes, on](const fs::path& dir) { sim::smiAdd(dir, a->dev, *planes, on); };
    };
}

Setup planeDowntrainSetup(bool on)
{
    return [on](CLI::App& cmd) -> Action {
        auto a = std::make_shared<DeviceArgs>(cmd);
        auto plane = std::make_shared<int>(0);
        auto* opt = cmd.add_option("PLANE", *plane,
                                   on ? "the plane (its SMI device's port)"
                                      : "the plane (default: every plane)")
                        ->check(CLI::Range(1, 8));
        if (on)
            opt->required();
        return
            [a, plane, on](const fs::path& dir) { sim::planeDowntrain(dir, a->dev, *plane, on); };
    };
}

} // namespace

// NOLINTNEXTLINE(cert-err58-cpp): registered before main; a failure there is fatal anyway
NICD_SIM_FAULT(smi_add, "smi-add",
               "rdma dev add smi<N> type SMI parent DEV: the SMI sub-device of an InfiniBand "
               "ConnectX-8 port in multi-plane mode, a port per plane",
               smiAddSetup(true), 250);
// NOLINTNEXTLINE(cert-err58-cpp): registered before main; a failure there is fatal anyway
NICD_SIM_FAULT(smi_add_clear, "smi-add-clear",
               "clears smi-add: rdma dev delete of the SMI device (the port gets its issm back)",
               smiAddSetup(false), 251);
// NOLINTNEXTLINE(cert-err58-cpp): registered before main; a failure there is fatal anyway
NICD_SIM_FAULT(plane_downtrain, "plane-downtrain",
               "a plane of DEV's multi-plane port trains at half its rate (after smi-add)",
               planeDowntrainSetup(true), 252);
// NOLINTNEXTLINE(cert-err58-cpp): registered before main; a failure there is fatal anyway
NICD_SIM_FAULT(plane_downtrain_clear, "plane-downtrain-clear",
               "clears plane-downtrain: the plane (or every plane) at its full rate again",
               planeDowntrainSetup(false), 253);

} // namespace nicd::sim::cli
