#include "counter_catalog.hpp"

#include <limits>
#include <map>
#include <mutex>
#include <tuple>

namespace nicd::sim {

using namespace overflow_column;

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

// Names as the gpud H100 fixture lists them (alphabetical, as sysfs does), plus the two of
// extended_err_cnts that kernels since 6.1 print (drivers/infiniband/hw/mlx5/counters.c, read
// from Mellanox/nic-kernel@09347ab71d92: basic_q_cnts, out_of_seq_q_cnts, retrans_q_cnts,
// extended_err_cnts, roce_accl_cnts and ext_ppcnt_cnts, and cong_cnts where the device may query
// congestion counters; the optional op counters are not in sysfs). Q counters are 32-bit and wrap
// (counters.md §1.3).
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
        {"req_rnr_retries_exceeded", 0, 32, W},
        {"req_transport_retries_exceeded", 0, 32, W},
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
        for (const CounterSpec& c :
             {CounterSpec{"np_cnp_sent", 20, 64, W},
              CounterSpec{"np_ecn_marked_roce_packets", 20, 64, W},
              CounterSpec{"rp_cnp_handled", 20, 64, W}, CounterSpec{"rp_cnp_ignored", 0, 64, W}})
            v.push_back(c);
        return v;
    }();
    return roce ? with_congestion : base;
}

const std::vector<CounterSpec>& keptCatalog(EthtoolBuilder build, bool physical_function,
                                            unsigned channels)
{
    static std::mutex mutex;
    static std::map<std::tuple<EthtoolBuilder, bool, unsigned>, std::vector<CounterSpec>> built;
    std::lock_guard lock(mutex);
    auto key = std::make_tuple(build, physical_function, channels);
    auto it = built.find(key);
    if (it == built.end())
        it = built.emplace(key, build(physical_function, channels)).first;
    return it->second;
}

NameIndex indexByName(const std::vector<CounterSpec>& catalog,
                      bool (*per_channel)(std::string_view name))
{
    NameIndex m;
    for (const auto& c : catalog)
        if (!per_channel(c.name))
            m.emplace(c.name, &c);
    return m;
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
