// What the bnxt plugin says of itself (plugin ABI 1.6): what bnxt_en's devlink health reporters
// mean. bnxt has no driver-ready file (Broadcom ships no driver container that writes one) and no
// RoCE LAG device of its own upstream.
#pragma once

#include <nicd/plugin/plugin.h>

namespace nicd::bnxt {

// bnxt_en's firmware reporters (drivers/net/ethernet/broadcom/bnxt/bnxt_devlink.c;
// Documentation/networking/devlink/bnxt.rst):
//   fw (Linux 5.12+, one reporter for every firmware event): in error from the firmware's fatal
//     or reset event until bnxt_dl_health_fw_recovery_done() sets it healthy again after the
//     reset; one left in error is a firmware the driver's reset did not bring back: fatal.
//     (mlx5's `fw` is a non-fatal health syndrome: the same name, another meaning.)
//   fw_fatal (Linux 5.5 to 5.11): a fatal firmware error, recovered by a reset: fatal.
//   fw_reset (Linux 5.5 to 5.11): the firmware's non-fatal reset notification, recovered by a
//     reset: a part the driver could not recover while in error.
void describePlugin(::nicd::plugin::v1::PluginTraits& out);

} // namespace nicd::bnxt
