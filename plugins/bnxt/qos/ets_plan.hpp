// The ETS nicd sets on a bnxt port before its first PFC change, and only when the port has none.
// bnxt refuses PFC until ETS was set (bnxt_dcb.c bnxt_hwrm_queue_pfc_cfg: `if (!my_ets) return
// -EINVAL`), and a host-owned port reads "no ETS" until something sets it: bnxt_dcbnl_ieee_getets
// fills only ets_cap (bp->max_tc) then, every prio_tc, tc_tsa and tc_tx_bw 0 (dcb::etsUnset).
//
// What is set: the PFC priorities on traffic class 1, every other priority on traffic class 0,
// both classes ETS with 50% of the bandwidth each. Why: PFC pauses a priority by pausing its
// class's queue, so the lossless priorities get a class of their own, or a pause would stall the
// lossy traffic too; ETS rather than strict priority so that neither class starves the other;
// two classes because every bnxt with RoCE has them (max_tc counts the firmware's configurable
// queues, less the CNP queue). bnxt_ets_validate accepts it: prio_tc within max_tc, TSA strict or
// ETS, bandwidth 100 in all, no class starved. Setting ETS re-creates the TX rings
// (bnxt_setup_mq_tc): a short traffic blip, once. Nothing else of the port's ETS is changed
// afterwards: a port with an ETS of its own keeps it.
//
// [plugin:bnxt] SetEts= (yes by default) says whether nicd sets it: with no, nicd leaves ETS
// alone and PFC on a port without one fails, saying so. Either way `nicctl verify` shows the
// port's ETS as the setting "ets" (etsReport).
#pragma once

#include <nicd/plugin/plugin.h>
#include <nicd/plugin/sdk/dcb_codec.h>

#include <cstdint>
#include <optional>
#include <string>

namespace nicd::bnxt {

namespace dcb = ::nicd::plugin::sdk::dcb;

inline constexpr uint8_t kLosslessTc = 1;
inline constexpr uint8_t kEtsShare = 50; // percent, each of the two classes

struct EtsPlan {
    std::optional<dcb::Ets> set; // the ETS to set first; nullopt: none needed
    std::string error;           // the port cannot take nicd's ETS (fewer than 2 classes)
};
// What PFC on `pfc_mask` needs first, given the ETS read (nullopt: the reply had none).
EtsPlan planEts(const std::optional<dcb::Ets>& current, uint8_t pfc_mask);

// "prio_tc 0,0,0,1,0,0,0,0, tc0 ets 50%, tc1 ets 50%".
std::string describeEts(const dcb::Ets& ets);

// The key of [plugin:bnxt] and what its value (checked by nicd as a bool) says; unset: yes.
inline constexpr const char* kSetEtsKey = "SetEts";
bool setEtsSetting(const std::optional<std::string>& value);

// "ets" for a state just read: what the port has ("none" when nothing set it), against what nicd
// does (sets it when PFC must change and the port has none, or leaves it alone under SetEts=no).
// Not compliant only while PFC must change on a port without ETS, which bnxt refuses.
plugin::v1::QosSettingReport etsReport(const dcb::DcbState& st, std::optional<uint8_t> pfc_mask,
                                       bool set_ets);

} // namespace nicd::bnxt
