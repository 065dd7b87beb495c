// ECN for RoCE and CNP marking on a bnxt port: what upstream lets nicd read, nothing it writes.
// bnxt_re turns DCQCN-style congestion control on at load on every PF (bnxt_re/main.c
// bnxt_re_setup_cc: CMDQ_MODIFY_ROCE_CC with enable = 1, tos_ecn = 1), with the firmware's
// parameters. The only upstream view of it is debugfs, from about v6.15 (commit 656dff55da19,
// bnxt_re/debugfs.c bnxt_re_debugfs_add_pdev): <debugfs>/bnxt_re/<PCI function>/cc_config/, one
// file per parameter, mode 0400, each read a firmware query printed "%d\n". The writable knobs
// (configfs bnxt_re/<dev>/ports/1/cc/) exist only in Broadcom's out-of-tree driver. So:
//  - ecn_np and ecn_rp: read from cc_config/enable_cc where it exists (CC is per function, not
//    per priority: 1 covers every wanted priority); never written (debugfs is not a stable
//    interface, and its writes do not report the firmware's answer). A port with CC off is
//    non-compliant with an error saying nicd cannot turn it on.
//  - without cc_config (kernel < 6.15, debugfs not mounted): "unsupported" (compliant, no error).
//  - cnp_dscp and cnp_priority: "unsupported". cc_config has alt_vlan_dscp and alt_vlan_pcp, the
//    CNPs' marking by Broadcom's naming only: nothing upstream documents them, so nicd does not
//    judge a port by them.
// debugfs is read under the host root like every tree (hostile data): one bounded read, one
// decimal number.
#pragma once

#include <nicd/plugin/sdk/qos_call.h>

#include <optional>
#include <string_view>
#include <vector>

namespace nicd::bnxt {

namespace pv1 = ::nicd::plugin::v1;
using plugin::sdk::QosCall;

// ecn_np, ecn_rp, then cnp_dscp and cnp_priority when the configuration sets them. Nothing when
// ECN is not managed (Ecn=no) or the daemon is older than ABI 1.2.
std::vector<pv1::QosSettingReport> congestionSettings(QosCall& call);

// "1\n" -> true, "0\n" -> false; anything but one decimal number -> nullopt.
std::optional<bool> parseCcEnable(std::string_view text);

} // namespace nicd::bnxt
