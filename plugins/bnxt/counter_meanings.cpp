#include "counter_meanings.hpp"

#include <array>
#include <optional>

namespace nicd::bnxt {

namespace pv1 = ::nicd::plugin::v1;

namespace {

using M = pv1::Meaning;

struct Named {
    std::string_view name;
    M meaning;
};

// bnxt_re's hw_counters with a meaning (drivers/infiniband/hw/bnxt_re/hw_counters.c,
// bnxt_re_ib_get_hw_stats, bnxt_re_copy_err_stats, bnxt_re_copy_ext_stats). The name up to v6.17
// first, then the one from ef56081d1864 (about v6.18), which took mlx5's names where the meaning
// is the same, but np_cnp_pkts for mlx5's np_cnp_sent.
//
// Left None on purpose: rnr_naks_rcvd / rnr_nak_retry_err counts RNR NAKs *received* (the
// requester waits and retries), not exhausted RNR retries (RnrRetryExceeded), so a busy receiver
// is no fault; missing_resp / implied_nak_seq_err and dup_req / duplicate_request have no meaning
// of their own; rx_roce_discards (the RoCE stats context's rx_discard_pkts) is left to the port's
// rx_stat_discard (RxDiscards), so that one drop is not judged twice.
constexpr std::array kHwCounters{
    Named{"to_retransmits", M::LocalAckTimeout}, // BNXT_RE_TO_RETRANSMITS
    Named{"local_ack_timeout_err", M::LocalAckTimeout},
    Named{"seq_err_naks_rcvd", M::SequenceErrorNak}, // BNXT_RE_SEQ_ERR_NAKS_RCVD
    Named{"packet_seq_err", M::SequenceErrorNak},
    Named{"oos_drop_count", M::OutOfSequence}, // BNXT_RE_OUT_OF_SEQ_ERR (ext on P5/P7)
    Named{"out_of_sequence", M::OutOfSequence},
    Named{"rx_out_of_buffer", M::OutOfBuffer}, // BNXT_RE_OOB: no receive WQE posted
    Named{"out_of_buffer", M::OutOfBuffer},
    Named{"max_retry_exceeded", M::RetryExceeded}, // BNXT_RE_MAX_RETRY_EXCEEDED: QP to error
    Named{"tx_cnp_pkts", M::CnpSent},              // BNXT_RE_TX_CNP (ext)
    Named{"np_cnp_pkts", M::CnpSent},
    Named{"rx_cnp_pkts", M::CnpHandled}, // BNXT_RE_RX_CNP (ext)
    Named{"rp_cnp_handled", M::CnpHandled},
    Named{"rx_ecn_marked_pkts", M::EcnMarked}, // BNXT_RE_RX_ECN (ext)
    Named{"np_ecn_marked_roce_packets", M::EcnMarked},
};

// bnxt_en's port statistics with a meaning and no priority
// (drivers/net/ethernet/broadcom/bnxt/bnxt_ethtool.c, bnxt_port_stats_arr and
// bnxt_port_stats_ext_arr). rx_discard_packets_cos<n> is left None: it counts a CoS queue, and
// which priorities a queue carries is the firmware's pri2cos map (bnxt_hwrm_port_qstats_ext),
// not in the name; bnxt_en derives per-priority series from it only for bytes and packets
// (rx_packets_pri<p>), never for discards. rx_fec_corrected_blocks counts blocks, not bits.
constexpr std::array kEthtool{
    Named{"rx_fcs_err_frames", M::RxCrcErrors},
    Named{"rx_corrected_bits", M::FecCorrectedBits},
    Named{"rx_stat_discard", M::RxDiscards},
    Named{"tx_stat_discard", M::TxDiscards},
    // The firmware's count of continuous RoCE pause episodes, a pause storm
    // (bnxt_port_stats_ext_arr); resume_roce_pause_events, their ends, means nothing alone.
    Named{"continuous_roce_pause_events", M::PauseStormError},
    // The firmware's count of the port's link going down (bnxt_port_stats_ext_arr).
    Named{"link_down_events", M::LinkDownEvents},
};

// "<prefix><digit 0-7><suffix>": the priority, else nullopt.
std::optional<uint8_t> priorityIn(std::string_view name, std::string_view prefix,
                                  std::string_view suffix)
{
    if (name.size() != prefix.size() + 1 + suffix.size() || !name.starts_with(prefix) ||
        !name.ends_with(suffix))
        return std::nullopt;
    const char digit = name[prefix.size()];
    if (digit < '0' || digit > '7')
        return std::nullopt;
    return static_cast<uint8_t>(digit - '0');
}

// bnxt_en's per-priority PFC statistics: bnxt_port_stats_arr's rx/tx_pfc_ena_frames_pri<p>, and
// bnxt_rx/tx_port_stats_ext_pfc_arr's pfc_pri<p>_{rx,tx}_duration_us and _rx_transitions.
struct PerPriority {
    std::string_view prefix;
    std::string_view suffix;
    M meaning;
};
constexpr std::array kPerPriority{
    PerPriority{"rx_pfc_ena_frames_pri", "", M::RxPauseFrames},
    PerPriority{"tx_pfc_ena_frames_pri", "", M::TxPauseFrames},
    PerPriority{"pfc_pri", "_rx_duration_us", M::RxPauseDuration},
    PerPriority{"pfc_pri", "_tx_duration_us", M::TxPauseDuration},
    PerPriority{"pfc_pri", "_rx_transitions", M::RxPauseTransitions},
};

template <size_t N> M lookup(const std::array<Named, N>& table, std::string_view name)
{
    for (const auto& n : table)
        if (n.name == name)
            return n.meaning;
    return M::None;
}

// Driver-side counts read from an atomic_t (resize_cq_cnt) or a level may wrap at 2^32; every
// other bnxt_re counter is the firmware's le64 (bnxt_re_copy_err_stats, bnxt_re_copy_ext_stats,
// the stats context's hw_stats).
bool driverCount(std::string_view name)
{
    return name == "resize_cq_cnt" || name.starts_with("pacing_") || isGauge(name);
}

} // namespace

bool isGauge(std::string_view name)
{
    // bnxt_re_ib_get_hw_stats before 7fcf00bd: atomic_read(&res_s->qp_count) and the like for
    // active_*, res_s->*_watermark for watermark_*, and the doorbell FIFO register's value.
    return name.starts_with("active_") || name.starts_with("watermark_") ||
           name == "db_fifo_register";
}

pv1::SeriesMeaning meaningOf(const pv1::SeriesKey& key)
{
    pv1::SeriesMeaning m;
    if (key.source == "hw_counters") {
        m.meaning = lookup(kHwCounters, key.name);
        m.wide = !driverCount(key.name);
        return m;
    }
    if (key.source != "ethtool")
        return m;
    // bnxt_en's ethtool statistics are 64-bit: the firmware's port statistics are le64, and the
    // counters narrower in hardware are accumulated into 64-bit ones by the driver (bnxt.c,
    // __bnxt_accumulate_stats and bnxt_add_one_ctr, which carry a wrap of the hardware's mask).
    m.wide = true;
    m.meaning = lookup(kEthtool, key.name);
    if (m.meaning != M::None)
        return m;
    for (const auto& p : kPerPriority)
        if (auto prio = priorityIn(key.name, p.prefix, p.suffix)) {
            m.meaning = p.meaning;
            m.priority = *prio;
            return m;
        }
    return m;
}

} // namespace nicd::bnxt
