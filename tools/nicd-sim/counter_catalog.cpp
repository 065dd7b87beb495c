#include "counter_catalog.hpp"

namespace nicd::sim {

// ~100 Gb/s of traffic each way on a busy port: 12.5e9 B/s = 3.125e9 four-octet words.
const std::vector<CounterSpec>& ibCounters()
{
    static const std::vector<CounterSpec> v{
        {"VL15_dropped", 0},
        {"excessive_buffer_overrun_errors", 0},
        {"link_downed", 0},
        {"link_error_recovery", 0},
        {"local_link_integrity_errors", 0},
        {"multicast_rcv_packets", 10},
        {"multicast_xmit_packets", 10},
        {"port_rcv_constraint_errors", 0},
        {"port_rcv_data", 3.125e9},
        {"port_rcv_errors", 0},
        {"port_rcv_packets", 3.0e6},
        {"port_rcv_remote_physical_errors", 0},
        {"port_rcv_switch_relay_errors", 0},
        {"port_xmit_constraint_errors", 0},
        {"port_xmit_data", 3.125e9},
        {"port_xmit_discards", 0},
        {"port_xmit_packets", 3.0e6},
        {"port_xmit_wait", 1000},
        {"symbol_error", 0},
        {"unicast_rcv_packets", 3.0e6},
        {"unicast_xmit_packets", 3.0e6},
    };
    return v;
}

const std::vector<CounterSpec>& hwCounters()
{
    static const std::vector<CounterSpec> v{
        {"duplicate_request", 0},
        {"implied_nak_seq_err", 0},
        {"lifespan", 0},
        {"local_ack_timeout_err", 0},
        {"out_of_buffer", 0},
        {"out_of_sequence", 0},
        {"packet_seq_err", 0},
        {"req_cqe_error", 0},
        {"req_cqe_flush_error", 0},
        {"req_remote_access_errors", 0},
        {"req_remote_invalid_request", 0},
        {"resp_cqe_error", 0},
        {"resp_cqe_flush_error", 0},
        {"resp_local_length_error", 0},
        {"resp_remote_access_errors", 0},
        {"rnr_nak_retry_err", 0},
        {"roce_adp_retrans", 0},
        {"roce_adp_retrans_to", 0},
        {"roce_slow_restart", 0},
        {"roce_slow_restart_cnps", 0},
        {"roce_slow_restart_trans", 0},
        {"rx_atomic_requests", 0},
        {"rx_dct_connect", 0},
        {"rx_icrc_encapsulated", 0},
        {"rx_read_requests", 2.0e4},
        {"rx_write_requests", 1.0e5},
    };
    return v;
}

const std::vector<CounterSpec>& ethtoolStats()
{
    static const std::vector<CounterSpec> v{
        {"rx_packets", 3.0e6},
        {"rx_bytes", 1.25e10},
        {"tx_packets", 3.0e6},
        {"tx_bytes", 1.25e10},
        {"rx_vport_unicast_packets", 3.0e6},
        {"rx_vport_unicast_bytes", 1.25e10},
        {"tx_vport_unicast_packets", 3.0e6},
        {"tx_vport_unicast_bytes", 1.25e10},
        {"rx_vport_rdma_unicast_packets", 2.9e6},
        {"tx_vport_rdma_unicast_packets", 2.9e6},
        {"rx_packets_phy", 3.0e6},
        {"tx_packets_phy", 3.0e6},
        {"rx_bytes_phy", 1.25e10},
        {"tx_bytes_phy", 1.25e10},
        {"rx_discards_phy", 0},
        {"tx_discards_phy", 0},
        {"rx_out_of_buffer", 0},
        {"rx_crc_errors_phy", 0},
        {"rx_symbol_err_phy", 0},
        {"link_down_events_phy", 0},
        {"rx_pause_ctrl_phy", 0},
        {"tx_pause_ctrl_phy", 0},
        {"rx_prio3_bytes", 1.2e10},
        {"rx_prio3_packets", 2.9e6},
        {"tx_prio3_bytes", 1.2e10},
        {"tx_prio3_packets", 2.9e6},
        {"rx_prio3_pause", 0},
        {"tx_prio3_pause", 0},
        {"rx_prio3_pause_duration", 0},
        {"tx_prio3_pause_duration", 0},
        {"rx_prio3_pause_transition", 0},
        {"module_unplug", 0},
        {"module_bus_stuck", 0},
    };
    return v;
}

double defaultRate(const std::string& dir, const std::string& name)
{
    const auto& list = dir == "counters"      ? ibCounters()
                       : dir == "hw_counters" ? hwCounters()
                                              : ethtoolStats();
    for (const auto& c : list)
        if (name == c.name)
            return c.rate;
    return 0;
}

} // namespace nicd::sim
