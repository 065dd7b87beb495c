#include "counter_meanings.hpp"

#include <array>

namespace nicd::mlx5 {

namespace {

namespace pv1 = ::nicd::plugin::v1;
using M = pv1::Meaning;

struct Named {
    std::string_view name;
    M meaning;
    bool wide;
};

// ports/N/hw_counters (reference/counters.md §2): the Q counters are 32-bit in hardware (they
// wrap); the congestion counters and rx_icrc_encapsulated are 64-bit (counters.md §2, the
// "congestion" and "PPCNT ext" rows).
constexpr std::array kHwCounters{
    Named{"local_ack_timeout_err", M::LocalAckTimeout, false},
    Named{"out_of_buffer", M::OutOfBuffer, false},
    Named{"out_of_sequence", M::OutOfSequence, false},
    Named{"packet_seq_err", M::SequenceErrorNak, false},
    Named{"roce_adp_retrans", M::AdaptiveRetransmit, false},
    Named{"roce_slow_restart", M::SlowRestart, false},
    Named{"rnr_nak_retry_err", M::RnrRetryExceeded, false},
    Named{"np_ecn_marked_roce_packets", M::EcnMarked, true},
    Named{"np_cnp_sent", M::CnpSent, true},
    Named{"rp_cnp_handled", M::CnpHandled, true},
    Named{"rp_cnp_ignored", M::CnpIgnored, true},
    Named{"rx_icrc_encapsulated", M::None, true},
};

// ethtool -S of the netdev (mlx5e en_stats.c; counters.md §3), all 64-bit: the port's own.
constexpr std::array kEthtool{
    Named{"tx_pause_storm_warning_events", M::PauseStormWarning, true},
    Named{"tx_pause_storm_error_events", M::PauseStormError, true},
    Named{"rx_corrected_bits_phy", M::FecCorrectedBits, true},
    Named{"rx_crc_errors_phy", M::RxCrcErrors, true},
    Named{"rx_discards_phy", M::RxDiscards, true},
    Named{"tx_discards_phy", M::TxDiscards, true},
    // PPCNT's physical-layer link_down_events (a 32-bit field, which no port goes down often
    // enough to wrap: a value below the last one is a reset).
    Named{"link_down_events_phy", M::LinkDownEvents, true},
};

// ethtool's per-priority statistics, rx_prio<p><suffix> and tx_prio<p><suffix> (en_stats.c
// pport_per_prio_pfc_stats_desc and pport_per_prio_traffic_stats_desc).
struct PerPriority {
    std::string_view suffix;
    M rx, tx; // None: that direction has no such statistic the rules read
};
constexpr std::array kPerPriority{
    PerPriority{"_pause", M::RxPauseFrames, M::TxPauseFrames},
    PerPriority{"_pause_duration", M::RxPauseDuration, M::TxPauseDuration},
    PerPriority{"_pause_transition", M::RxPauseTransitions, M::None},
    PerPriority{"_discards", M::RxPriorityDrops, M::None},
};

template <size_t N>
pv1::SeriesMeaning lookUp(const std::array<Named, N>& table, std::string_view name)
{
    for (const auto& n : table)
        if (n.name == name)
            return {n.meaning, pv1::kNoPriority, n.wide};
    return {};
}

pv1::SeriesMeaning perPriority(std::string_view name)
{
    const bool rx = name.starts_with("rx_prio");
    if (!rx && !name.starts_with("tx_prio"))
        return {};
    if (name.size() < 9 || name[7] < '0' || name[7] > '7')
        return {};
    const std::string_view rest = name.substr(8);
    for (const auto& p : kPerPriority)
        if (p.suffix == rest && (rx ? p.rx : p.tx) != M::None)
            return {rx ? p.rx : p.tx, static_cast<uint8_t>(name[7] - '0'), true};
    return {};
}

} // namespace

pv1::SeriesMeaning counterMeaning(std::string_view source, std::string_view name)
{
    if (source == "hw_counters")
        return lookUp(kHwCounters, name);
    if (source != "ethtool")
        return {};
    if (auto m = lookUp(kEthtool, name); m.meaning != M::None)
        return m;
    auto m = perPriority(name);
    if (m.meaning == M::None)
        m.wide = true; // every ethtool statistic of mlx5e is 64-bit
    return m;
}

pv1::SeriesMeaning meaningOf(const pv1::SeriesKey& key)
{
    return counterMeaning(key.source, key.name);
}

} // namespace nicd::mlx5
