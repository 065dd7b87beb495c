#include "counter_catalog.hpp"

#include <limits>

namespace nicd::sim {

namespace {

// A busy port at full load: ~100 Gb/s of RDMA each way (12.5e9 B/s) in ~4 KiB packets, plus a
// little kernel-stack traffic on the netdev.
constexpr double kRdmaBytes = 1.25e10;
constexpr double kRdmaPackets = 3.05e6;
constexpr double kStackBytes = 1.0e6;
constexpr double kStackPackets = 1.0e3;

constexpr auto S = Overflow::Saturate;
constexpr auto W = Overflow::Wrap;

} // namespace

// Widths: counters.md §1.2 (PMA extended table); saturating, as the IBA specifies.
const std::vector<CounterSpec>& ibCounters()
{
    static const std::vector<CounterSpec> v{
        {"VL15_dropped", 0, 16, S},
        {"excessive_buffer_overrun_errors", 0, 4, S},
        {"link_downed", 0, 8, S},
        {"link_error_recovery", 0, 8, S},
        {"local_link_integrity_errors", 0, 4, S},
        {"multicast_rcv_packets", 10, 64, S},
        {"multicast_xmit_packets", 10, 64, S},
        {"port_rcv_constraint_errors", 0, 8, S},
        {"port_rcv_data", kRdmaBytes / 4, 64, S}, // 4-octet words
        {"port_rcv_errors", 0, 16, S},
        {"port_rcv_packets", kRdmaPackets, 64, S},
        {"port_rcv_remote_physical_errors", 0, 16, S},
        {"port_rcv_switch_relay_errors", 0, 16, S},
        {"port_xmit_constraint_errors", 0, 8, S},
        {"port_xmit_data", kRdmaBytes / 4, 64, S},
        {"port_xmit_discards", 0, 16, S},
        {"port_xmit_packets", kRdmaPackets, 64, S},
        {"port_xmit_wait", 1000, 32, S},
        {"symbol_error", 0, 16, S},
        {"unicast_rcv_packets", kRdmaPackets, 64, S},
        {"unicast_xmit_packets", kRdmaPackets, 64, S},
    };
    return v;
}

// Names and order as the gpud H100 fixture; Q counters are 32-bit and wrap (counters.md §1.3).
const std::vector<CounterSpec>& hwCounters(bool roce)
{
    static const std::vector<CounterSpec> base{
        {"duplicate_request", 0, 32, W},
        {"implied_nak_seq_err", 0, 32, W},
        {"lifespan", 0, 64, S, 12, true}, // ms, read back rounded to jiffies (gpud: 12)
        {"local_ack_timeout_err", 0, 32, W},
        {"out_of_buffer", 0, 32, W},
        {"out_of_sequence", 0, 32, W},
        {"packet_seq_err", 0, 32, W},
        {"req_cqe_error", 0, 32, W},
        {"req_cqe_flush_error", 0, 32, W},
        {"req_remote_access_errors", 0, 32, W},
        {"req_remote_invalid_request", 0, 32, W},
        {"resp_cqe_error", 0, 32, W},
        {"resp_cqe_flush_error", 0, 32, W},
        {"resp_local_length_error", 0, 32, W},
        {"resp_remote_access_errors", 0, 32, W},
        {"rnr_nak_retry_err", 0, 32, W},
        {"roce_adp_retrans", 0, 32, W},
        {"roce_adp_retrans_to", 0, 32, W},
        {"roce_slow_restart", 0, 32, W},
        {"roce_slow_restart_cnps", 0, 32, W},
        {"roce_slow_restart_trans", 0, 32, W},
        {"rx_atomic_requests", 0, 32, W},
        {"rx_dct_connect", 0, 32, W},
        {"rx_icrc_encapsulated", 0, 64, W},
        {"rx_read_requests", 2.0e4, 32, W},
        {"rx_write_requests", 1.0e5, 32, W},
    };
    static const std::vector<CounterSpec> with_congestion = [] {
        auto v = base;
        for (CounterSpec c :
             {CounterSpec{"np_cnp_sent", 20, 64, W},
              CounterSpec{"np_ecn_marked_roce_packets", 20, 64, W},
              CounterSpec{"rp_cnp_handled", 20, 64, W}, CounterSpec{"rp_cnp_ignored", 0, 64, W}})
            v.push_back(c);
        return v;
    }();
    return roce ? with_congestion : base;
}

// Names and order as mlx5e prints them (fixtures/ethtool/ethq-tests-mlx5_core.txt, counters.md
// §2.3), with PFC enabled on priority 3 (so per-priority pause lines exist for it only).
const std::vector<CounterSpec>& ethtoolStats(bool physical_function)
{
    static const std::vector<CounterSpec> vport{
        {"rx_packets", kStackPackets, 64, S},
        {"rx_bytes", kStackBytes, 64, S},
        {"tx_packets", kStackPackets, 64, S},
        {"tx_bytes", kStackBytes, 64, S},
        {"rx_csum_unnecessary", kStackPackets, 64, S},
        {"rx_csum_none", 0, 64, S},
        {"tx_queue_stopped", 0, 64, S},
        {"tx_queue_wake", 0, 64, S},
        {"tx_queue_dropped", 0, 64, S},
        {"rx_wqe_err", 0, 64, S},
        {"rx_buff_alloc_err", 0, 64, S},
        {"rx_out_of_buffer", 0, 32, W},
        {"rx_if_down_packets", 0, 32, W},
        {"rx_vport_unicast_packets", kStackPackets, 64, S},
        {"rx_vport_unicast_bytes", kStackBytes, 64, S},
        {"tx_vport_unicast_packets", kStackPackets, 64, S},
        {"tx_vport_unicast_bytes", kStackBytes, 64, S},
        {"rx_vport_multicast_packets", 10, 64, S},
        {"rx_vport_multicast_bytes", 1000, 64, S},
        {"tx_vport_multicast_packets", 10, 64, S},
        {"tx_vport_multicast_bytes", 1000, 64, S},
        {"rx_vport_broadcast_packets", 1, 64, S},
        {"rx_vport_broadcast_bytes", 64, 64, S},
        {"tx_vport_broadcast_packets", 1, 64, S},
        {"tx_vport_broadcast_bytes", 64, 64, S},
        {"rx_vport_rdma_unicast_packets", kRdmaPackets, 64, S},
        {"rx_vport_rdma_unicast_bytes", kRdmaBytes, 64, S},
        {"tx_vport_rdma_unicast_packets", kRdmaPackets, 64, S},
        {"tx_vport_rdma_unicast_bytes", kRdmaBytes, 64, S},
        {"rx_vport_rdma_multicast_packets", 0, 64, S},
        {"rx_vport_rdma_multicast_bytes", 0, 64, S},
        {"tx_vport_rdma_multicast_packets", 0, 64, S},
        {"tx_vport_rdma_multicast_bytes", 0, 64, S},
    };
    static const std::vector<CounterSpec> pf = [] {
        auto v = vport;
        const CounterSpec phy[] = {
            {"link_down_events_phy", 0, 32, W},
            // Pre-FEC errors: at 400 Gb/s, 4000 corrected bits a second is a BER of 1e-8, a
            // healthy optical link (the RS(544,514) limit is 2.4e-4).
            {"rx_corrected_bits_phy", kCorrectedBitsPerSecond, 64, S},
            {"rx_pcs_symbol_err_phy", 0, 64, S},
            {"rx_err_lane_0_phy", kCorrectedBitsPerSecond / 4, 64, S},
            {"rx_err_lane_1_phy", kCorrectedBitsPerSecond / 4, 64, S},
            {"rx_err_lane_2_phy", kCorrectedBitsPerSecond / 4, 64, S},
            {"rx_err_lane_3_phy", kCorrectedBitsPerSecond / 4, 64, S},
            {"tx_packets_phy", kRdmaPackets + kStackPackets, 64, S},
            {"rx_packets_phy", kRdmaPackets + kStackPackets, 64, S},
            {"rx_crc_errors_phy", 0, 64, S},
            {"tx_bytes_phy", kRdmaBytes + kStackBytes, 64, S},
            {"rx_bytes_phy", kRdmaBytes + kStackBytes, 64, S},
            {"tx_multicast_phy", 10, 64, S},
            {"tx_broadcast_phy", 1, 64, S},
            {"rx_multicast_phy", 10, 64, S},
            {"rx_broadcast_phy", 1, 64, S},
            {"rx_in_range_len_errors_phy", 0, 64, S},
            {"rx_out_of_range_len_phy", 0, 64, S},
            {"rx_oversize_pkts_phy", 0, 64, S},
            {"rx_symbol_err_phy", 0, 64, S},
            {"tx_mac_control_phy", 0, 64, S},
            {"rx_mac_control_phy", 0, 64, S},
            {"rx_unsupported_op_phy", 0, 64, S},
            {"rx_pause_ctrl_phy", 0, 64, S},
            {"tx_pause_ctrl_phy", 0, 64, S},
            {"rx_discards_phy", 0, 64, S},
            {"tx_discards_phy", 0, 64, S},
            {"tx_errors_phy", 0, 64, S},
            {"rx_undersize_pkts_phy", 0, 64, S},
            {"rx_fragments_phy", 0, 64, S},
            {"rx_jabbers_phy", 0, 64, S},
            {"rx_buffer_passed_thres_phy", 0, 64, S},
            {"rx_pci_signal_integrity", 0, 64, S},
            {"tx_pci_signal_integrity", 0, 64, S},
            {"outbound_pci_buffer_overflow", 0, 64, S},
            {"outbound_pci_stalled_rd_events", 0, 64, S},
            {"outbound_pci_stalled_wr_events", 0, 64, S},
        };
        v.insert(v.end(), std::begin(phy), std::end(phy));
        // RoCE runs on priority 3, the rest of the traffic on priority 0.
        static const char* const prio_names[8][4] = {
            {"rx_prio0_bytes", "rx_prio0_packets", "tx_prio0_bytes", "tx_prio0_packets"},
            {"rx_prio1_bytes", "rx_prio1_packets", "tx_prio1_bytes", "tx_prio1_packets"},
            {"rx_prio2_bytes", "rx_prio2_packets", "tx_prio2_bytes", "tx_prio2_packets"},
            {"rx_prio3_bytes", "rx_prio3_packets", "tx_prio3_bytes", "tx_prio3_packets"},
            {"rx_prio4_bytes", "rx_prio4_packets", "tx_prio4_bytes", "tx_prio4_packets"},
            {"rx_prio5_bytes", "rx_prio5_packets", "tx_prio5_bytes", "tx_prio5_packets"},
            {"rx_prio6_bytes", "rx_prio6_packets", "tx_prio6_bytes", "tx_prio6_packets"},
            {"rx_prio7_bytes", "rx_prio7_packets", "tx_prio7_bytes", "tx_prio7_packets"},
        };
        for (int p = 0; p < 8; ++p) {
            double bytes = p == 3 ? kRdmaBytes : p == 0 ? kStackBytes : 0;
            double packets = p == 3 ? kRdmaPackets : p == 0 ? kStackPackets : 0;
            v.push_back({prio_names[p][0], bytes, 64, S});
            v.push_back({prio_names[p][1], packets, 64, S});
            v.push_back({prio_names[p][2], bytes, 64, S});
            v.push_back({prio_names[p][3], packets, 64, S});
        }
        const CounterSpec pfc[] = {
            {"rx_prio3_pause", 0, 64, S},
            {"rx_prio3_pause_duration", 0, 64, S}, // microseconds
            {"tx_prio3_pause", 0, 64, S},
            {"tx_prio3_pause_duration", 0, 64, S},
            {"rx_prio3_pause_transition", 0, 64, S},
            {"tx_pause_storm_warning_events", 0, 64, S},
            {"tx_pause_storm_error_events", 0, 64, S},
            {"module_unplug", 0, 64, S},
            {"module_bus_stuck", 0, 64, S},
            {"module_high_temp", 0, 64, S},
            {"module_bad_shorted", 0, 64, S},
        };
        v.insert(v.end(), std::begin(pfc), std::end(pfc));
        return v;
    }();
    return physical_function ? pf : vport;
}

CounterSpec counterSpec(const std::string& group, const std::string& name)
{
    auto find = [&](const std::vector<CounterSpec>& list) -> const CounterSpec* {
        for (const auto& c : list)
            if (name == c.name)
                return &c;
        return nullptr;
    };
    const CounterSpec* spec = group == "counters"      ? find(ibCounters())
                              : group == "hw_counters" ? find(hwCounters(true))
                                                       : find(ethtoolStats(true));
    return spec ? *spec : CounterSpec{"", 0, 64, Overflow::Saturate};
}

uint64_t advanceCounter(uint64_t v, uint64_t inc, unsigned bits, Overflow overflow)
{
    const uint64_t max =
        bits >= 64 ? std::numeric_limits<uint64_t>::max() : (uint64_t{1} << bits) - 1;
    if (overflow == Overflow::Wrap)
        return (v + inc) & max; // unsigned arithmetic wraps at 2^64 by itself
    if (v >= max || inc > max - v)
        return max;
    return v + inc;
}

} // namespace nicd::sim
