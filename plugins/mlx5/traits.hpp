// What the mlx5 plugin says of itself and of its devices beyond sysfs (plugin ABI 1.6), as data
// for the SDK's plugin base: the NVIDIA network operator's driver-ready file, what mlx5's devlink
// health reporters mean, and which of its devices is a RoCE LAG.
#pragma once

#include <nicd/plugin/plugin.h>
#include <nicd/plugin/sdk/vendor_tables.h>

#include <array>

namespace nicd::mlx5 {

// The file the NVIDIA network operator's driver container (its OFED driver image, entrypoint
// scripts) creates once mlx5_core and mlx5_ib are loaded.
inline constexpr const char* kDriverReadyFile = "/run/mellanox/drivers/.driver-ready";

// mlx5's reporters (drivers/net/ethernet/mellanox/mlx5/core/health.c and en/reporter_{tx,rx}.c;
// Documentation/networking/devlink/mlx5.rst): fw_fatal in error is a fatal firmware error
// (recovery reloads the device; refused, the device stays down); fw is a firmware health
// syndrome (or a stalled health counter) the device runs on with, never set healthy again while
// the driver is loaded; tx and rx are queues the driver could not recover.
inline constexpr std::array<plugin::sdk::ReporterRow, 4> kReporters{{
    {"fw_fatal", plugin::v1::ReporterMeaning::FirmwareFatal},
    {"fw", plugin::v1::ReporterMeaning::FirmwareError},
    {"tx", plugin::v1::ReporterMeaning::Recoverable},
    {"rx", plugin::v1::ReporterMeaning::Recoverable},
}};
inline constexpr plugin::sdk::PluginFacts kFacts{kDriverReadyFile, kReporters};

// mlx5_ib names the RDMA device of a RoCE LAG mlx5_bond_<n> (mlx5_ib_add: "mlx5_bond_%d" when
// the LAG is active), registered on PF0's PCI function, over the bond's slaves.
bool isLag(const ::nicd::plugin::v1::DeviceRef& dev);

} // namespace nicd::mlx5
