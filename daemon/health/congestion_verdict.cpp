#include "health/congestion_verdict.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace nicd::health {

const char* toString(CongestionState s)
{
    switch (s) {
    case CongestionState::Idle:
        return "idle";
    case CongestionState::EcnWorking:
        return "ecn_working";
    case CongestionState::PfcOnly:
        return "pfc_only";
    case CongestionState::PauseStorm:
        return "pause_storm";
    case CongestionState::Lossy:
        return "lossy";
    case CongestionState::Unknown:
        break;
    }
    return "unknown";
}

CongestionVerdict judgeCongestion(const CongestionDelta& d, const CongestionLimits& limits)
{
    CongestionVerdict v;
    if (d.seconds < kMinWindowSec)
        return v;
    // A share above 1 is a reset or a read straddling an update: clamp (reference §6.1).
    auto share = [&](double us) { return std::clamp(us / (d.seconds * 1e6), 0.0, 1.0); };
    v.rx_paused_ratio = share(d.rx_pause_us);
    v.tx_paused_ratio = share(d.tx_pause_us);
    const double paused = std::max(v.rx_paused_ratio, v.tx_paused_ratio);
    const bool ecn = d.ecn_marked > 0 || d.cnp_sent > 0 || d.cnp_handled > 0;
    const auto window =
        d.seconds < 10 ? fmt::format("{:.1f} s", d.seconds) : fmt::format("{:.0f} s", d.seconds);
    // The driver stopped sending pause after its critical watermark: drops follow, but the storm
    // is the cause, and it is fatal.
    const bool storm = paused >= limits.storm_ratio || d.storm_warnings > 0 || d.storm_errors > 0;
    const bool loss = d.lossless_drops > 0 || d.out_of_sequence > 0 || d.retransmissions > 0;
    if (d.storm_errors > 0 || (storm && !loss)) {
        v.state = CongestionState::PauseStorm;
        v.fatal = d.storm_errors > 0;
        v.why = fmt::format("paused {:.0f}% of {} (peer paused us {:.0f}%, we paused it {:.0f}%), "
                            "{:g} pause-storm warnings and {:g} errors from the driver",
                            100 * paused, window, 100 * v.rx_paused_ratio, 100 * v.tx_paused_ratio,
                            d.storm_warnings, d.storm_errors);
        // How the peer paused us, where the NIC counts its XOFF: held (a receiver stuck behind
        // the switch port) or in bursts (congestion the fabric should have marked).
        if (d.transitions_read && v.rx_paused_ratio >= limits.storm_ratio)
            v.why +=
                d.pause_transitions <= kHeldPauseTransitions
                    ? fmt::format("; the peer held the pause with {:g} XOFF: a receiver "
                                  "stuck behind the switch port, not bursts",
                                  d.pause_transitions)
                    : fmt::format("; the peer paused us in {:g} XOFF bursts", d.pause_transitions);
    } else if (loss) {
        v.state = CongestionState::Lossy;
        v.why = fmt::format("{:g} out-of-sequence packets, {:g} retransmissions and {:g} drops on "
                            "the lossless priority in {}",
                            d.out_of_sequence, d.retransmissions, d.lossless_drops, window);
    } else if (paused >= limits.pause_ratio && !ecn) {
        v.state = CongestionState::PfcOnly;
        v.why = fmt::format("paused {:.1f}% of {} ({:g} pauses) with no ECN mark and no CNP: PFC "
                            "alone carries the congestion",
                            100 * paused, window, d.pause_transitions);
    } else if (ecn) {
        v.state = CongestionState::EcnWorking;
        v.why = fmt::format("{:g} ECN marks, {:g} CNPs sent, {:g} handled in {}; paused {:.1f}%",
                            d.ecn_marked, d.cnp_sent, d.cnp_handled, window, 100 * paused);
    } else {
        v.state = CongestionState::Idle;
        v.why = fmt::format("no congestion signal in {}; paused {:.1f}%", window, 100 * paused);
    }
    return v;
}

} // namespace nicd::health
