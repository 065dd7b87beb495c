// Pure planning for DSCP trust on bnxt. bnxt has no trust knob (no dcbnl_setapptrust, no sysfs
// trust file): the firmware classifies by DSCP for each DSCP APP entry (selector 5) it was given
// (bnxt_dcb.c bnxt_dcbnl_ieee_setapp -> bnxt_hwrm_queue_dscp2pri_cfg, one HWRM_QUEUE_DSCP2PRI_CFG
// entry each). So "trust dscp" is the entries RoCE needs: RoCE's DSCP (RoceTos >> 2) on the RoCE
// priority, and, when configured, the CNPs' DSCP on theirs; "trust pcp" is no DSCP entry at all.
// DSCP entries for other DSCP values are someone else's and left alone. No DGRAM/UDP 4791 entry:
// on kernels up to 6.17 bnxt_re turns one into a priority VLAN tag on every GID
// (bnxt_re/main.c bnxt_re_setup_qos), which makes the firmware classify RoCE by PCP.
#pragma once

#include <nicd/plugin/plugin.h>
#include <nicd/plugin/sdk/dcb_codec.h>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace nicd::bnxt {

namespace dcb = ::nicd::plugin::sdk::dcb;
namespace pv1 = ::nicd::plugin::v1;

// The DSCP entries wanted: none for trust PCP; otherwise {5, P, RoceTos >> 2} with P the lowest
// PFC priority (RoceTos >> 5, the DSCP's class selector, when no priority is lossless), and, when
// `cnp_fields` (ABI 1.2) and a CNP DSCP other than RoCE's is configured, {5, Q, cnp_dscp} with Q
// the CNP priority, or P when none is configured. Sorted.
std::vector<dcb::App> wantedDscpApps(const pv1::QosDesired& desired, bool cnp_fields);

struct AppPlan {
    std::vector<dcb::App> remove; // IEEE_DEL, first: a stale DSCP -> priority entry
    std::vector<dcb::App> add;    // IEEE_SET, then: the wanted entries missing
    bool empty() const { return remove.empty() && add.empty(); }
};
// trust dscp (`wanted` not empty): add the missing wanted entries, remove the DSCP entries that
// map a wanted DSCP to another priority (the kernel keeps both, the firmware the last written).
// trust pcp (`wanted` empty): remove every DSCP entry.
AppPlan planDscpApps(std::span<const dcb::App> table, std::span<const dcb::App> wanted);

// "dscp 26->3,48->7" (the wanted entries), "pcp".
std::string describeWantedTrust(std::span<const dcb::App> wanted);
// "pcp" when the table has no DSCP entry; otherwise "dscp" and the entries for the wanted DSCP
// values ("dscp 26->5", "dscp 26->3,48->7"), or the count of others when none is for them
// ("dscp (12 entries for other DSCP values)").
std::string describeTrust(std::span<const dcb::App> table, std::span<const dcb::App> wanted);

} // namespace nicd::bnxt
