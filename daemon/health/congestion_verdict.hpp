// Which layer carries a RoCE port's congestion, from what its counters did over a sliding window
// (reference congestion.md §6): pure, over the deltas of one window.
//
//   pause_storm  the driver's pause-storm errors rose: past its critical watermark it stops
//                sending pause and drops follow (fatal, check_switch_port; it outranks lossy, being
//                the cause of the drops); or, below lossy, paused StormRatio or more of the window
//                or the driver's storm warnings rose (degraded)
//   lossy        drops on the lossless priority, out-of-sequence RoCE packets or retransmissions
//                (NAKs for a sequence error, adaptive retransmission): PFC is not protecting it
//                (degraded, check_qos_config)
//   pfc_only     paused PauseRatio or more of the window while no ECN mark and no CNP arrived:
//                ECN is off or the switch does not mark before PFC fires (degraded,
//                check_congestion_config)
//   ecn_working  ECN marks or CNPs flow and pauses stay below StormRatio: DCQCN is doing its job
//                (the healthy busy state; no condition)
//   idle         no ECN signal and pauses below PauseRatio
//   unknown      not judged yet: no window of at least kMinWindowSec
#pragma once

#include <cstdint>
#include <string>

namespace nicd::health {

enum class CongestionState : uint8_t { Unknown, Idle, EcnWorking, PfcOnly, PauseStorm, Lossy };

inline constexpr CongestionState kCongestionStates[] = {
    CongestionState::Unknown, CongestionState::Idle,       CongestionState::EcnWorking,
    CongestionState::PfcOnly, CongestionState::PauseStorm, CongestionState::Lossy};

const char* toString(CongestionState s);

// What the counters did over one window of `seconds` (pause durations in microseconds, the
// others in events or packets), summed over the lossless priorities and the port's netdevs.
struct CongestionDelta {
    double seconds = 0;
    double rx_pause_us = 0;    // the peer paused us (rx_prio<p>_pause_duration)
    double tx_pause_us = 0;    // we paused the peer (tx_prio<p>_pause_duration)
    double ecn_marked = 0;     // np_ecn_marked_roce_packets
    double cnp_sent = 0;       // np_cnp_sent
    double cnp_handled = 0;    // rp_cnp_handled
    double storm_warnings = 0; // tx_pause_storm_warning_events
    double storm_errors = 0;   // tx_pause_storm_error_events
    double lossless_drops = 0; // rx_prio<p>_discards
    double out_of_sequence = 0;
    double retransmissions = 0;   // packet_seq_err and roce_adp_retrans: loss the peer saw
    double pause_transitions = 0; // rx_prio<p>_pause_transition: how many pauses
    // The port has a transitions counter (mlx5 rx_prio<p>_pause_transition, bnxt_en
    // pfc_pri<p>_rx_transitions): pause_transitions 0 is then a count, not an absence.
    bool transitions_read = false;
};

// At most this many XOFF from the peer in a window it kept us paused a storm's share of: it
// held the pause, a stuck receiver behind it, rather than pausing in bursts.
inline constexpr double kHeldPauseTransitions = 3;

struct CongestionLimits {
    double pause_ratio = 0.01; // CongestionPauseRatio=
    double storm_ratio = 0.5;  // CongestionStormRatio=
};

inline constexpr double kMinWindowSec = 2;

struct CongestionVerdict {
    CongestionState state = CongestionState::Unknown;
    double rx_paused_ratio = 0; // share of the window, 0..1
    double tx_paused_ratio = 0;
    bool fatal = false; // pause_storm past the driver's critical watermark
    std::string why;    // the numbers behind the state, for the condition's message
};

CongestionVerdict judgeCongestion(const CongestionDelta& d, const CongestionLimits& limits);

} // namespace nicd::health
