// What the bnxt plugin says of itself (plugin ABI 1.6), as data for the SDK's plugin base: what
// bnxt_en's devlink health reporters mean. bnxt has no driver-ready file (Broadcom ships no
// driver container that writes one) and no RoCE LAG device of its own upstream.
#pragma once

#include <nicd/plugin/plugin.h>
#include <nicd/plugin/sdk/vendor_tables.h>

#include <array>

namespace nicd::bnxt {

// bnxt_en's firmware reporters (drivers/net/ethernet/broadcom/bnxt/bnxt_devlink.c;
// Documentation/networking/devlink/bnxt.rst):
//   fw (Linux 5.16 on: one reporter for every firmware event): reported on the firmware's fatal
//     or reset event, recovered by resetting the firmware (bnxt_fw_recover), and set healthy
//     again by bnxt_dl_health_fw_recovery_done() once the reset brought it back: FirmwareReset,
//     fatal only when it stays in error past a reset. (mlx5's `fw` is a non-fatal health
//     syndrome: the same name, another meaning.)
//   fw_fatal (Linux 5.5 to 5.15): a fatal firmware error, recovered by the same reset:
//     FirmwareReset.
//   fw_reset (Linux 5.5 to 5.15): the firmware's non-fatal reset notification: Recoverable.
inline constexpr std::array<plugin::sdk::ReporterRow, 3> kReporters{{
    {"fw", plugin::v1::ReporterMeaning::FirmwareReset},
    {"fw_fatal", plugin::v1::ReporterMeaning::FirmwareReset},
    {"fw_reset", plugin::v1::ReporterMeaning::Recoverable},
}};
inline constexpr plugin::sdk::PluginFacts kFacts{"", kReporters};

} // namespace nicd::bnxt
