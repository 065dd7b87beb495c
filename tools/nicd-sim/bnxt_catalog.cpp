// Sources (research notes /work/notes/bnxt-research.md §4, read from torvalds/linux):
// - hw_counters: drivers/infiniband/hw/bnxt_re/hw_counters.c, bnxt_re_stat_descs[] in enum
//   order, after commit ef56081d1864 "RDMA/bnxt_re: RoCE related hardware counters update" (the
//   6.18 names: local_ack_timeout_err, np_cnp_pkts, rp_cnp_handled, np_ecn_marked_roce_packets,
//   req_cqe_error, ...) and commit 7fcf00bd "Remove non-statistics counters from hw_counters"
//   (no active_*, watermark_*, pacing_*, db_fifo_register, resize_cq_cnt), both in rdma for-next
//   in Sept 2025. A P5/P7 PF has every entry; all are u64 (firmware DMA or HWRM), so none wraps.
//   bnxt_re has only alloc_hw_port_stats: the counters are per port, nothing per device.
// - ethtool -S: drivers/net/ethernet/broadcom/bnxt/bnxt_ethtool.c, bnxt_get_strings(): per
//   completion ring ("[%d]: %s") bnxt_ring_rx_stats_str, bnxt_ring_tx_stats_str,
//   bnxt_ring_tpa2_stats_str (all 6 on P7: BNXT_NUM_TPA_RING_STATS_P7), bnxt_rx_sw_stats_str and
//   bnxt_cmn_sw_stats_str; then bnxt_ring_err_stats_arr, bnxt_port_stats_arr
//   (BNXT_FLAG_PORT_STATS), bnxt_port_stats_ext_arr and bnxt_tx_port_stats_ext_arr (whole: the
//   firmware's ext sizes cover them) and, with pri2cos_valid, rx/tx bytes and packets per
//   priority. Combined rings: every ring is rx, tx and completion ring at once
//   (BNXT_FLAG_SHARED_RINGS, the default), so a ring prints 26 lines.
// Rates: RoCE rides priority 3 and the kernel's traffic priority 0, each on the class of
// service of the same number (pri2cos the identity), as in the mlx5 catalog.
#include "bnxt_catalog.hpp"

#include <fmt/format.h>

namespace nicd::sim {

namespace {

using namespace overflow_column;

struct Rate {
    const char* name;
    double rate;
};

// hw_counters: the stats context's RoCE traffic, then the error and ext groups.
constexpr const char* kHwCounters[] = {
    "rx_pkts",
    "rx_bytes",
    "tx_pkts",
    "tx_bytes",
    "recoverable_errors",
    "tx_roce_errors",
    "tx_roce_discards",
    "rx_roce_errors",
    "rx_roce_discards",
    "local_ack_timeout_err",
    "packet_seq_err",
    "max_retry_exceeded",
    "rnr_nak_retry_err",
    "implied_nak_seq_err",
    "unrecoverable_err",
    "bad_resp_err",
    "local_qp_op_err",
    "local_protection_err",
    "mem_mgmt_op_err",
    "req_remote_invalid_request",
    "req_remote_access_errors",
    "remote_op_err",
    "duplicate_request",
    "res_exceed_max",
    "resp_local_length_error",
    "res_exceeds_wqe",
    "res_opcode_err",
    "res_rx_invalid_rkey",
    "res_rx_domain_err",
    "res_rx_no_perm",
    "res_rx_range_err",
    "res_tx_invalid_rkey",
    "res_tx_domain_err",
    "res_tx_no_perm",
    "res_tx_range_err",
    "res_irrq_oflow",
    "res_unsup_opcode",
    "res_unaligned_atomic",
    "res_rem_inv_err",
    "res_mem_err",
    "res_srq_err",
    "res_cmp_err",
    "res_invalid_dup_rkey",
    "res_wqe_format_err",
    "res_cq_load_err",
    "res_srq_load_err",
    "res_tx_pci_err",
    "res_rx_pci_err",
    "out_of_sequence",
    "tx_atomic_req",
    "tx_read_req",
    "tx_read_resp",
    "tx_write_req",
    "tx_send_req",
    "tx_roce_only_pkts",
    "tx_roce_only_bytes",
    "rx_atomic_requests",
    "rx_read_requests",
    "rx_read_resp",
    "rx_write_requests",
    "rx_send_req",
    "rx_roce_only_pkts",
    "rx_roce_only_bytes",
    "rx_roce_good_pkts",
    "rx_roce_good_bytes",
    "out_of_buffer",
    "np_cnp_pkts",
    "rp_cnp_handled",
    "np_ecn_marked_roce_packets",
    "req_cqe_error",
    "resp_cqe_error",
    "resp_remote_access_errors",
};

// The healthy rates of hw_counters (the congestion group as the mlx5 catalog's).
constexpr Rate kHwRates[] = {
    {"rx_pkts", kRdmaPackets},
    {"rx_bytes", kRdmaBytes},
    {"tx_pkts", kRdmaPackets},
    {"tx_bytes", kRdmaBytes},
    {"tx_read_req", 2.0e4},
    {"tx_read_resp", 2.0e4},
    {"tx_write_req", 1.0e5},
    {"tx_roce_only_pkts", kRdmaPackets},
    {"tx_roce_only_bytes", kRdmaBytes},
    {"rx_read_requests", 2.0e4},
    {"rx_read_resp", 2.0e4},
    {"rx_write_requests", 1.0e5},
    {"rx_roce_only_pkts", kRdmaPackets},
    {"rx_roce_only_bytes", kRdmaBytes},
    {"rx_roce_good_pkts", kRdmaPackets},
    {"rx_roce_good_bytes", kRdmaBytes},
    {"np_cnp_pkts", 20},
    {"rp_cnp_handled", 20},
    {"np_ecn_marked_roce_packets", 20},
};

// Per ring, after "[<ring>]: ".
constexpr const char* kRingStats[] = {
    "rx_ucast_packets", "rx_mcast_packets",    "rx_bcast_packets",
    "rx_discards",      "rx_errors",           "rx_ucast_bytes",
    "rx_mcast_bytes",   "rx_bcast_bytes",      "tx_ucast_packets",
    "tx_mcast_packets", "tx_bcast_packets",    "tx_errors",
    "tx_discards",      "tx_ucast_bytes",      "tx_mcast_bytes",
    "tx_bcast_bytes",   "rx_tpa_eligible_pkt", "rx_tpa_eligible_bytes",
    "rx_tpa_pkt",       "rx_tpa_bytes",        "rx_tpa_errors",
    "rx_tpa_events",    "rx_l4_csum_errors",   "rx_resets",
    "rx_buf_errors",    "missed_irqs"};

constexpr const char* kRingTotals[] = {
    "rx_total_l4_csum_errors", "rx_total_resets",           "rx_total_buf_errors",
    "rx_total_oom_discards",   "rx_total_netpoll_discards", "rx_total_ring_discards",
    "tx_total_resets",         "tx_total_ring_discards",    "total_missed_irqs"};

// bnxt_port_stats_arr.
constexpr const char* kPort[] = {"rx_64b_frames",
                                 "rx_65b_127b_frames",
                                 "rx_128b_255b_frames",
                                 "rx_256b_511b_frames",
                                 "rx_512b_1023b_frames",
                                 "rx_1024b_1518b_frames",
                                 "rx_good_vlan_frames",
                                 "rx_1519b_2047b_frames",
                                 "rx_2048b_4095b_frames",
                                 "rx_4096b_9216b_frames",
                                 "rx_9217b_16383b_frames",
                                 "rx_total_frames",
                                 "rx_ucast_frames",
                                 "rx_mcast_frames",
                                 "rx_bcast_frames",
                                 "rx_fcs_err_frames",
                                 "rx_ctrl_frames",
                                 "rx_pause_frames",
                                 "rx_pfc_frames",
                                 "rx_align_err_frames",
                                 "rx_ovrsz_frames",
                                 "rx_jbr_frames",
                                 "rx_mtu_err_frames",
                                 "rx_tagged_frames",
                                 "rx_double_tagged_frames",
                                 "rx_good_frames",
                                 "rx_pfc_ena_frames_pri0",
                                 "rx_pfc_ena_frames_pri1",
                                 "rx_pfc_ena_frames_pri2",
                                 "rx_pfc_ena_frames_pri3",
                                 "rx_pfc_ena_frames_pri4",
                                 "rx_pfc_ena_frames_pri5",
                                 "rx_pfc_ena_frames_pri6",
                                 "rx_pfc_ena_frames_pri7",
                                 "rx_undrsz_frames",
                                 "rx_eee_lpi_events",
                                 "rx_eee_lpi_duration",
                                 "rx_bytes",
                                 "rx_runt_bytes",
                                 "rx_runt_frames",
                                 "rx_stat_discard",
                                 "rx_stat_err",
                                 "tx_64b_frames",
                                 "tx_65b_127b_frames",
                                 "tx_128b_255b_frames",
                                 "tx_256b_511b_frames",
                                 "tx_512b_1023b_frames",
                                 "tx_1024b_1518b_frames",
                                 "tx_good_vlan_frames",
                                 "tx_1519b_2047b_frames",
                                 "tx_2048b_4095b_frames",
                                 "tx_4096b_9216b_frames",
                                 "tx_9217b_16383b_frames",
                                 "tx_good_frames",
                                 "tx_total_frames",
                                 "tx_ucast_frames",
                                 "tx_mcast_frames",
                                 "tx_bcast_frames",
                                 "tx_pause_frames",
                                 "tx_pfc_frames",
                                 "tx_jabber_frames",
                                 "tx_fcs_err_frames",
                                 "tx_err",
                                 "tx_fifo_underruns",
                                 "tx_pfc_ena_frames_pri0",
                                 "tx_pfc_ena_frames_pri1",
                                 "tx_pfc_ena_frames_pri2",
                                 "tx_pfc_ena_frames_pri3",
                                 "tx_pfc_ena_frames_pri4",
                                 "tx_pfc_ena_frames_pri5",
                                 "tx_pfc_ena_frames_pri6",
                                 "tx_pfc_ena_frames_pri7",
                                 "tx_eee_lpi_events",
                                 "tx_eee_lpi_duration",
                                 "tx_total_collisions",
                                 "tx_bytes",
                                 "tx_xthol_frames",
                                 "tx_stat_discard",
                                 "tx_stat_error"};

constexpr double kPortPackets = kRdmaPackets + kStackPackets;
constexpr double kPortBytes = kRdmaBytes + kStackBytes;

// The healthy rates of the port and ext statistics (no pause: PFC fires only under the
// congestion faults). Pre-FEC errors as the mlx5 catalog's (a BER of 1e-8 at 400 Gb/s).
constexpr Rate kEthtoolRates[] = {
    {"rx_512b_1023b_frames", kStackPackets},
    {"rx_4096b_9216b_frames", kRdmaPackets},
    {"rx_total_frames", kPortPackets},
    {"rx_ucast_frames", kPortPackets},
    {"rx_mcast_frames", 10},
    {"rx_bcast_frames", 1},
    {"rx_good_frames", kPortPackets},
    {"rx_bytes", kPortBytes},
    {"tx_512b_1023b_frames", kStackPackets},
    {"tx_4096b_9216b_frames", kRdmaPackets},
    {"tx_good_frames", kPortPackets},
    {"tx_total_frames", kPortPackets},
    {"tx_ucast_frames", kPortPackets},
    {"tx_mcast_frames", 10},
    {"tx_bcast_frames", 1},
    {"tx_bytes", kPortBytes},
    {"rx_bytes_cos0", kStackBytes},
    {"rx_packets_cos0", kStackPackets},
    {"rx_bytes_cos3", kRdmaBytes},
    {"rx_packets_cos3", kRdmaPackets},
    {"tx_bytes_cos0", kStackBytes},
    {"tx_packets_cos0", kStackPackets},
    {"tx_bytes_cos3", kRdmaBytes},
    {"tx_packets_cos3", kRdmaPackets},
    {"rx_bytes_pri0", kStackBytes},
    {"rx_packets_pri0", kStackPackets},
    {"rx_bytes_pri3", kRdmaBytes},
    {"rx_packets_pri3", kRdmaPackets},
    {"tx_bytes_pri0", kStackBytes},
    {"tx_packets_pri0", kStackPackets},
    {"tx_bytes_pri3", kRdmaBytes},
    {"tx_packets_pri3", kRdmaPackets},
    {"rx_bits", kPortBytes * 8},
    {"rx_corrected_bits", kCorrectedBitsPerSecond},
    {"rx_fec_corrected_blocks", kCorrectedBitsPerSecond / 3},
};

void add(std::vector<CounterSpec>& out, std::string name, const Rate* rates, size_t n)
{
    CounterSpec spec{std::move(name), 0, 64, S};
    for (size_t i = 0; i < n; ++i)
        if (spec.name == rates[i].name)
            spec.rate = rates[i].rate;
    out.push_back(std::move(spec));
}

void addPort(std::vector<CounterSpec>& out, std::string name)
{
    add(out, std::move(name), kEthtoolRates, std::size(kEthtoolRates));
}

// bnxt_port_stats_ext_arr, then bnxt_tx_port_stats_ext_arr, then the per-priority arrays.
void appendPortExt(std::vector<CounterSpec>& out)
{
    for (const char* s : {"link_down_events", "continuous_pause_events", "resume_pause_events",
                          "continuous_roce_pause_events", "resume_roce_pause_events"})
        addPort(out, s);
    for (int n = 0; n < 8; ++n) {
        addPort(out, fmt::format("rx_bytes_cos{}", n));
        addPort(out, fmt::format("rx_packets_cos{}", n));
    }
    for (int n = 0; n < 8; ++n) {
        addPort(out, fmt::format("pfc_pri{}_rx_duration_us", n));
        addPort(out, fmt::format("pfc_pri{}_rx_transitions", n));
    }
    for (const char* s :
         {"rx_bits", "rx_buffer_passed_threshold", "rx_pcs_symbol_err", "rx_corrected_bits"})
        addPort(out, s);
    for (int n = 0; n < 8; ++n) {
        addPort(out, fmt::format("rx_discard_bytes_cos{}", n));
        addPort(out, fmt::format("rx_discard_packets_cos{}", n));
    }
    for (const char* s :
         {"rx_fec_corrected_blocks", "rx_fec_uncorrectable_blocks", "rx_filter_miss"})
        addPort(out, s);
    for (int n = 0; n < 8; ++n) {
        addPort(out, fmt::format("tx_bytes_cos{}", n));
        addPort(out, fmt::format("tx_packets_cos{}", n));
    }
    for (int n = 0; n < 8; ++n) {
        addPort(out, fmt::format("pfc_pri{}_tx_duration_us", n));
        addPort(out, fmt::format("pfc_pri{}_tx_transitions", n));
    }
    for (const char* f :
         {"rx_bytes_pri{}", "rx_packets_pri{}", "tx_bytes_pri{}", "tx_packets_pri{}"})
        for (int n = 0; n < 8; ++n)
            addPort(out, fmt::format(fmt::runtime(f), n));
}

std::vector<CounterSpec> buildBnxtCatalog(bool physical_function, unsigned rings)
{
    std::vector<CounterSpec> v;
    v.reserve(rings * std::size(kRingStats) + 212);
    for (unsigned i = 0; i < rings; ++i)
        for (const char* s : kRingStats)
            v.push_back({fmt::format("[{}]: {}", i, s), 0, 64, S});
    for (const char* s : kRingTotals)
        v.push_back({s, 0, 64, S});
    if (!physical_function)
        return v;
    for (const char* s : kPort)
        addPort(v, s);
    appendPortExt(v);
    return v;
}

// "[12]: rx_ucast_packets" -> "rx_ucast_packets"; empty for a name that is not a ring's.
std::string_view ringStatistic(std::string_view name)
{
    if (!name.starts_with('['))
        return {};
    auto close = name.find("]: ");
    if (close == std::string_view::npos || close < 2 ||
        name.substr(1, close - 1).find_first_not_of("0123456789") != std::string_view::npos)
        return {};
    return name.substr(close + 3);
}

} // namespace

const std::vector<CounterSpec>& bnxtHwCounters(bool /*roce*/)
{
    static const std::vector<CounterSpec> v = [] {
        std::vector<CounterSpec> out;
        for (const char* name : kHwCounters)
            add(out, name, kHwRates, std::size(kHwRates));
        out.push_back({"lifespan", 0, 64, S, 12, true}); // ib_core's, as on mlx5
        return out;
    }();
    return v;
}

const std::vector<CounterSpec>& bnxtEthtoolStatistics(bool physical_function, unsigned rings)
{
    if (rings < 1 || rings > kMaxChannels)
        throw SimError(
            fmt::format("{} rings: a bnxt_en netdev has from 1 to {}", rings, kMaxChannels));
    return keptCatalog(&buildBnxtCatalog, physical_function, rings);
}

const CounterSpec* bnxtEthtoolStatistic(std::string_view name)
{
    static const auto index = indexByName(bnxtEthtoolStatistics(true, 1), [](std::string_view n) {
        return !ringStatistic(n).empty();
    });
    auto it = index.find(name);
    return it == index.end() ? nullptr : it->second;
}

std::string bnxtRingTotal(std::string_view name)
{
    auto stat = ringStatistic(name);
    if (stat == "rx_ucast_packets")
        return "rx_packets_cos0";
    if (stat == "rx_ucast_bytes")
        return "rx_bytes_cos0";
    if (stat == "tx_ucast_packets")
        return "tx_packets_cos0";
    if (stat == "tx_ucast_bytes")
        return "tx_bytes_cos0";
    return {};
}

} // namespace nicd::sim
