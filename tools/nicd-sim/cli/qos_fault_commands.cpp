// inject DIR qos-drift DEV; inject DIR tos-reset DEV; inject DIR ecn-drift DEV;
// inject DIR dcbx-firmware DEV; inject DIR dcbx-firmware-clear DEV
#include "cli/args.hpp"
#include "cli/registry.hpp"
#include "dcb_state.hpp"
#include "ecn_state.hpp"

namespace nicd::sim::cli {

// NOLINTNEXTLINE(cert-err58-cpp): registered before main; a failure there is fatal anyway
NICD_SIM_FAULT(qos_drift, "qos-drift",
               "another tool changes the device's DCB: PFC moves to priority 4 only and the DSCP "
               "APP entries are removed (trust PCP)",
               [](CLI::App& cmd) -> Action {
                   auto a = std::make_shared<DeviceArgs>(cmd);
                   return [a](const fs::path& dir) { qosDrift(dir, a->dev); };
               });

// NOLINTNEXTLINE(cert-err58-cpp): registered before main; a failure there is fatal anyway
NICD_SIM_FAULT(tos_reset, "tos-reset",
               "the device re-registers: rdma_cm default_roce_tos back to 0, MOFED traffic_class "
               "unset",
               [](CLI::App& cmd) -> Action {
                   auto a = std::make_shared<DeviceArgs>(cmd);
                   return [a](const fs::path& dir) { tosReset(dir, a->dev); };
               });

// NOLINTNEXTLINE(cert-err58-cpp): registered before main; a failure there is fatal anyway
NICD_SIM_FAULT(ecn_drift, "ecn-drift",
               "ECN (DCQCN) is turned off on every priority of the device's netdevs, at both the "
               "notification and the reaction point (a firmware reset, another tool)",
               [](CLI::App& cmd) -> Action {
                   auto a = std::make_shared<DeviceArgs>(cmd);
                   return [a](const fs::path& dir) { ecnDrift(dir, a->dev); };
               });

// NOLINTNEXTLINE(cert-err58-cpp): registered before main; a failure there is fatal anyway
NICD_SIM_FAULT(dcbx_firmware, "dcbx-firmware",
               "the NIC firmware's DCBX agent takes the device's DCB (DCBX 0x0a, as bnxt reports "
               "it): every DCB set is refused with EINVAL; bnxt devices only",
               [](CLI::App& cmd) -> Action {
                   auto a = std::make_shared<DeviceArgs>(cmd);
                   return [a](const fs::path& dir) { dcbxOwner(dir, a->dev, true); };
               });

// NOLINTNEXTLINE(cert-err58-cpp): registered before main; a failure there is fatal anyway
NICD_SIM_FAULT(dcbx_firmware_clear, "dcbx-firmware-clear",
               "the host owns the device's DCB again (DCBX 0x09)", [](CLI::App& cmd) -> Action {
                   auto a = std::make_shared<DeviceArgs>(cmd);
                   return [a](const fs::path& dir) { dcbxOwner(dir, a->dev, false); };
               });

} // namespace nicd::sim::cli
