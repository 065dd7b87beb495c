// The statistics follow the kernel's drivers/net/ethernet/mellanox/mlx5/core/en_stats.c as of
// Linux 6.8 (read from NVIDIA/NV-Kernels@000f1f6b47ed, where fill_strings uses ethtool_puts):
// the groups of mlx5e_nic_stats_grps[] in that order, each printing what its fill_strings prints
// on a ConnectX-7 whose capabilities are all there: sw (sw_stats_desc, with the
// CONFIG_MLX5_EN_TLS, CONFIG_MLX5_EN_ARFS and CONFIG_PAGE_POOL_STATS entries a distribution
// kernel builds), qcnt (q_stats_desc, drop_rq_stats_desc), vnic_env (steering, internal-queue and
// oversize drops), vport (vport_stats_desc and the loopback pair), 802_3, 2863, 2819, phy
// (link_down_events_phy, the statistical group and the four lane counters), eth_ext, pcie (perf,
// overflow and stall counters), per_prio (pport_per_prio_traffic_stats_desc for the 8
// priorities, then pport_per_prio_pfc_stats_desc for each priority with PFC enabled and the
// pause-storm pair), pme, channels (ch_stats_desc per channel, then per channel rq_stats_desc
// and rq_xdpsq_stats_desc, then sq_stats_desc per channel of traffic class 0, then
// xdpsq_stats_desc per channel; names from en_stats.h's MLX5E_DECLARE_*_STAT prefixes "ch%d_",
// "rx%d_", "rx%d_xdp_tx_", "tx%d_", "tx%d_xdp_") and per_port_buff_congest (sbcam_reg: buffer
// and congestion discards and ECN marks per priority). Groups that print nothing until a feature
// is used are left out: kTLS offload contexts (tls), IPsec, MACsec, PTP, HTB QoS queues and
// AF_XDP (xsk.ever_used). max_opened_tc stays 1 (DCB priorities do not open more traffic classes
// of send queues; mqprio would).
//
// The channel count: mlx5e_build_nic_params (en_main.c) sets num_channels to
// min(MLX5E_MAX_NUM_CHANNELS / 2, priv->max_nch), max_nch being the completion vectors the core
// has (one per online CPU) capped by the netdev's queues (mlx5e_calc_max_nch). On a host with 64
// or more CPUs that is 64 channels, the count ethtool -l shows and the channels group prints
// (stats_nch, every channel ever opened).
#include "ethtool_catalog.hpp"

#include <fmt/format.h>

#include <cctype>
#include <charconv>

namespace nicd::sim {

namespace {

using namespace overflow_column;

// The priority RoCE runs on, the only one with PFC enabled (nicd's default PfcPriorities=3);
// the rest of the traffic runs on priority 0.
constexpr int kLosslessPriority = 3;

// How a statistic advances when it is not a 64-bit counter that stays 0 unless a fault moves it.
struct Behaviour {
    const char* name;
    double rate = 0;
    unsigned bits = 64;
    Overflow overflow = S;
};

const Behaviour kBehaviours[] = {
    {"rx_packets", kStackPackets},
    {"rx_bytes", kStackBytes},
    {"tx_packets", kStackPackets},
    {"tx_bytes", kStackBytes},
    {"rx_csum_unnecessary", kStackPackets},
    {"tx_csum_partial", kStackPackets},
    {"tx_cqes", kStackPackets},
    {"rx_pp_alloc_fast", kStackPackets},
    {"rx_pp_recycle_cached", kStackPackets},
    {"ch_events", 500},
    {"ch_poll", 1000},
    {"ch_arm", 500},
    {"rx_out_of_buffer", 0, 32, W},
    {"rx_if_down_packets", 0, 32, W},
    {"dev_internal_queue_oob", 0, 32, W},
    {"rx_oversize_pkts_buffer", 0, 32, W},
    {"rx_vport_unicast_packets", kStackPackets},
    {"rx_vport_unicast_bytes", kStackBytes},
    {"tx_vport_unicast_packets", kStackPackets},
    {"tx_vport_unicast_bytes", kStackBytes},
    {"rx_vport_multicast_packets", 10},
    {"rx_vport_multicast_bytes", 1000},
    {"tx_vport_multicast_packets", 10},
    {"tx_vport_multicast_bytes", 1000},
    {"rx_vport_broadcast_packets", 1},
    {"rx_vport_broadcast_bytes", 64},
    {"tx_vport_broadcast_packets", 1},
    {"tx_vport_broadcast_bytes", 64},
    {"rx_vport_rdma_unicast_packets", kRdmaPackets},
    {"rx_vport_rdma_unicast_bytes", kRdmaBytes},
    {"tx_vport_rdma_unicast_packets", kRdmaPackets},
    {"tx_vport_rdma_unicast_bytes", kRdmaBytes},
    {"tx_packets_phy", kRdmaPackets + kStackPackets},
    {"rx_packets_phy", kRdmaPackets + kStackPackets},
    {"tx_bytes_phy", kRdmaBytes + kStackBytes},
    {"rx_bytes_phy", kRdmaBytes + kStackBytes},
    {"tx_multicast_phy", 10},
    {"tx_broadcast_phy", 1},
    {"rx_multicast_phy", 10},
    {"rx_broadcast_phy", 1},
    {"rx_512_to_1023_bytes_phy", kStackPackets},
    {"rx_4096_to_8191_bytes_phy", kRdmaPackets},
    {"link_down_events_phy", 0, 32, W},
    // Pre-FEC errors: at 400 Gb/s, 4000 corrected bits a second is a BER of 1e-8, a healthy
    // optical link (the RS(544,514) limit is 2.4e-4).
    {"rx_corrected_bits_phy", kCorrectedBitsPerSecond},
    {"rx_err_lane_0_phy", kCorrectedBitsPerSecond / 4},
    {"rx_err_lane_1_phy", kCorrectedBitsPerSecond / 4},
    {"rx_err_lane_2_phy", kCorrectedBitsPerSecond / 4},
    {"rx_err_lane_3_phy", kCorrectedBitsPerSecond / 4},
    {"rx_pci_signal_integrity", 0, 32, W},
    {"tx_pci_signal_integrity", 0, 32, W},
    {"outbound_pci_stalled_rd", 0, 32, W},
    {"outbound_pci_stalled_wr", 0, 32, W},
    {"outbound_pci_stalled_rd_events", 0, 32, W},
    {"outbound_pci_stalled_wr_events", 0, 32, W},
};

// sw: sw_stats_desc.
constexpr const char* kSoftware =
    "rx_packets rx_bytes tx_packets tx_bytes tx_tso_packets tx_tso_bytes tx_tso_inner_packets "
    "tx_tso_inner_bytes tx_added_vlan_packets tx_nop tx_mpwqe_blks tx_mpwqe_pkts "
    "tx_tls_encrypted_packets tx_tls_encrypted_bytes tx_tls_ooo tx_tls_dump_packets "
    "tx_tls_dump_bytes tx_tls_resync_bytes tx_tls_skip_no_sync_data tx_tls_drop_no_sync_data "
    "tx_tls_drop_bypass_req rx_lro_packets rx_lro_bytes rx_gro_packets rx_gro_bytes rx_gro_skbs "
    "rx_gro_match_packets rx_gro_large_hds rx_ecn_mark rx_removed_vlan_packets rx_csum_unnecessary "
    "rx_csum_none rx_csum_complete rx_csum_complete_tail rx_csum_complete_tail_slow "
    "rx_csum_unnecessary_inner rx_xdp_drop rx_xdp_redirect rx_xdp_tx_xmit rx_xdp_tx_mpwqe "
    "rx_xdp_tx_inlnw rx_xdp_tx_nops rx_xdp_tx_full rx_xdp_tx_err rx_xdp_tx_cqe tx_csum_none "
    "tx_csum_partial tx_csum_partial_inner tx_queue_stopped tx_queue_dropped tx_xmit_more "
    "tx_recover tx_cqes tx_queue_wake tx_cqe_err tx_xdp_xmit tx_xdp_mpwqe tx_xdp_inlnw tx_xdp_nops "
    "tx_xdp_full tx_xdp_err tx_xdp_cqes rx_wqe_err rx_mpwqe_filler_cqes rx_mpwqe_filler_strides "
    "rx_oversize_pkts_sw_drop rx_buff_alloc_err rx_cqe_compress_blks rx_cqe_compress_pkts "
    "rx_congst_umr rx_arfs_add rx_arfs_request_in rx_arfs_request_out rx_arfs_expired rx_arfs_err "
    "rx_recover rx_pp_alloc_fast rx_pp_alloc_slow rx_pp_alloc_slow_high_order rx_pp_alloc_empty "
    "rx_pp_alloc_refill rx_pp_alloc_waive rx_pp_recycle_cached rx_pp_recycle_cache_full "
    "rx_pp_recycle_ring rx_pp_recycle_ring_full rx_pp_recycle_released_ref "
    "rx_tls_decrypted_packets rx_tls_decrypted_bytes rx_tls_resync_req_pkt rx_tls_resync_req_start "
    "rx_tls_resync_req_end rx_tls_resync_req_skip rx_tls_resync_res_ok rx_tls_resync_res_retry "
    "rx_tls_resync_res_skip rx_tls_err ch_events ch_poll ch_arm ch_aff_change ch_force_irq "
    "ch_eq_rearm rx_xsk_packets rx_xsk_bytes rx_xsk_csum_complete rx_xsk_csum_unnecessary "
    "rx_xsk_csum_unnecessary_inner rx_xsk_csum_none rx_xsk_ecn_mark rx_xsk_removed_vlan_packets "
    "rx_xsk_xdp_drop rx_xsk_xdp_redirect rx_xsk_wqe_err rx_xsk_mpwqe_filler_cqes "
    "rx_xsk_mpwqe_filler_strides rx_xsk_oversize_pkts_sw_drop rx_xsk_buff_alloc_err "
    "rx_xsk_cqe_compress_blks rx_xsk_cqe_compress_pkts rx_xsk_congst_umr tx_xsk_xmit tx_xsk_mpwqe "
    "tx_xsk_inlnw tx_xsk_full tx_xsk_err tx_xsk_cqes";

// qcnt and vnic_env: firmware Q and vNIC counters.
constexpr const char* kQueueAndVnic =
    "rx_out_of_buffer rx_if_down_packets rx_steer_missed_packets dev_internal_queue_oob "
    "rx_oversize_pkts_buffer";

// vport: vport_stats_desc and vport_loopback_stats_desc.
constexpr const char* kVport =
    "rx_vport_unicast_packets rx_vport_unicast_bytes tx_vport_unicast_packets "
    "tx_vport_unicast_bytes rx_vport_multicast_packets rx_vport_multicast_bytes "
    "tx_vport_multicast_packets tx_vport_multicast_bytes rx_vport_broadcast_packets "
    "rx_vport_broadcast_bytes tx_vport_broadcast_packets tx_vport_broadcast_bytes "
    "rx_vport_rdma_unicast_packets rx_vport_rdma_unicast_bytes tx_vport_rdma_unicast_packets "
    "tx_vport_rdma_unicast_bytes rx_vport_rdma_multicast_packets rx_vport_rdma_multicast_bytes "
    "tx_vport_rdma_multicast_packets tx_vport_rdma_multicast_bytes vport_loopback_packets "
    "vport_loopback_bytes";

// 802_3, 2863, 2819, phy, eth_ext and pcie: the physical port's registers (PPCNT, MPCNT).
constexpr const char* kPhysicalPort =
    "tx_packets_phy rx_packets_phy rx_crc_errors_phy tx_bytes_phy rx_bytes_phy tx_multicast_phy "
    "tx_broadcast_phy rx_multicast_phy rx_broadcast_phy rx_in_range_len_errors_phy "
    "rx_out_of_range_len_phy rx_oversize_pkts_phy rx_symbol_err_phy tx_mac_control_phy "
    "rx_mac_control_phy rx_unsupported_op_phy rx_pause_ctrl_phy tx_pause_ctrl_phy rx_discards_phy "
    "tx_discards_phy tx_errors_phy rx_undersize_pkts_phy rx_fragments_phy rx_jabbers_phy "
    "rx_64_bytes_phy rx_65_to_127_bytes_phy rx_128_to_255_bytes_phy rx_256_to_511_bytes_phy "
    "rx_512_to_1023_bytes_phy rx_1024_to_1518_bytes_phy rx_1519_to_2047_bytes_phy "
    "rx_2048_to_4095_bytes_phy rx_4096_to_8191_bytes_phy rx_8192_to_10239_bytes_phy "
    "link_down_events_phy rx_pcs_symbol_err_phy rx_corrected_bits_phy rx_err_lane_0_phy "
    "rx_err_lane_1_phy rx_err_lane_2_phy rx_err_lane_3_phy rx_buffer_passed_thres_phy "
    "rx_pci_signal_integrity tx_pci_signal_integrity outbound_pci_buffer_overflow "
    "outbound_pci_stalled_rd outbound_pci_stalled_wr outbound_pci_stalled_rd_events "
    "outbound_pci_stalled_wr_events";

// pme.
constexpr const char* kModule =
    "module_unplug module_bus_stuck module_high_temp module_bad_shorted";

// Per channel, after its prefix: ch_stats_desc; rq_stats_desc ("rx%d_"), rq_xdpsq_stats_desc
// ("rx%d_xdp_tx_"); sq_stats_desc ("tx%d_"); xdpsq_stats_desc ("tx%d_xdp_").
constexpr const char* kChannelStats = "events poll arm aff_change force_irq eq_rearm";
constexpr const char* kRqStats =
    "packets bytes csum_complete csum_complete_tail csum_complete_tail_slow csum_unnecessary "
    "csum_unnecessary_inner csum_none xdp_drop xdp_redirect lro_packets lro_bytes gro_packets "
    "gro_bytes gro_skbs gro_match_packets gro_large_hds ecn_mark removed_vlan_packets wqe_err "
    "mpwqe_filler_cqes mpwqe_filler_strides oversize_pkts_sw_drop buff_alloc_err cqe_compress_blks "
    "cqe_compress_pkts congst_umr arfs_add arfs_request_in arfs_request_out arfs_expired arfs_err "
    "recover pp_alloc_fast pp_alloc_slow pp_alloc_slow_high_order pp_alloc_empty pp_alloc_refill "
    "pp_alloc_waive pp_recycle_cached pp_recycle_cache_full pp_recycle_ring pp_recycle_ring_full "
    "pp_recycle_released_ref tls_decrypted_packets tls_decrypted_bytes tls_resync_req_pkt "
    "tls_resync_req_start tls_resync_req_end tls_resync_req_skip tls_resync_res_ok "
    "tls_resync_res_retry tls_resync_res_skip tls_err";
constexpr const char* kXdpSqStats = "xmit mpwqe inlnw nops full err cqes";
constexpr const char* kSqStats =
    "packets bytes tso_packets tso_bytes tso_inner_packets tso_inner_bytes csum_partial "
    "csum_partial_inner added_vlan_packets nop mpwqe_blks mpwqe_pkts tls_encrypted_packets "
    "tls_encrypted_bytes tls_ooo tls_dump_packets tls_dump_bytes tls_resync_bytes "
    "tls_skip_no_sync_data tls_drop_no_sync_data tls_drop_bypass_req csum_none stopped dropped "
    "xmit_more recover cqes wake cqe_err";

// The names of a space-separated list, in order.
std::vector<std::string_view> words(std::string_view list)
{
    std::vector<std::string_view> out;
    while (!list.empty()) {
        auto space = list.find(' ');
        out.push_back(list.substr(0, space));
        list = space == std::string_view::npos ? std::string_view() : list.substr(space + 1);
    }
    return out;
}

void append(std::vector<CounterSpec>& out, std::string_view names)
{
    for (auto name : words(names)) {
        CounterSpec spec{std::string(name), 0, 64, S};
        for (const auto& b : kBehaviours)
            if (name == b.name)
                spec = {std::string(name), b.rate, b.bits, b.overflow};
        out.push_back(std::move(spec));
    }
}

// per_prio: traffic of every priority, then PFC pauses of the lossless one (durations in
// microseconds) and the storm pair.
void appendPerPriority(std::vector<CounterSpec>& out)
{
    for (int p = 0; p < 8; ++p) {
        double bytes = p == kLosslessPriority ? kRdmaBytes : p == 0 ? kStackBytes : 0;
        double packets = p == kLosslessPriority ? kRdmaPackets : p == 0 ? kStackPackets : 0;
        out.push_back({fmt::format("rx_prio{}_bytes", p), bytes, 64, S});
        out.push_back({fmt::format("rx_prio{}_packets", p), packets, 64, S});
        out.push_back({fmt::format("rx_prio{}_discards", p), 0, 64, S});
        out.push_back({fmt::format("tx_prio{}_bytes", p), bytes, 64, S});
        out.push_back({fmt::format("tx_prio{}_packets", p), packets, 64, S});
    }
    for (const char* f : {"rx_prio{}_pause", "rx_prio{}_pause_duration", "tx_prio{}_pause",
                          "tx_prio{}_pause_duration", "rx_prio{}_pause_transition"})
        out.push_back({fmt::format(fmt::runtime(f), kLosslessPriority), 0, 64, S});
    out.push_back({"tx_pause_storm_warning_events", 0, 64, S});
    out.push_back({"tx_pause_storm_error_events", 0, 64, S});
}

void appendChannels(std::vector<CounterSpec>& out, unsigned channels)
{
    auto add = [&](std::string name) { out.push_back({std::move(name), 0, 64, S}); };
    const auto ch = words(kChannelStats), rq = words(kRqStats), sq = words(kSqStats),
               xdp = words(kXdpSqStats);
    for (unsigned i = 0; i < channels; ++i)
        for (auto s : ch)
            add(fmt::format("ch{}_{}", i, s));
    for (unsigned i = 0; i < channels; ++i) {
        for (auto s : rq)
            add(fmt::format("rx{}_{}", i, s));
        for (auto s : xdp)
            add(fmt::format("rx{}_xdp_tx_{}", i, s));
    }
    for (unsigned i = 0; i < channels; ++i)
        for (auto s : sq)
            add(fmt::format("tx{}_{}", i, s));
    for (unsigned i = 0; i < channels; ++i)
        for (auto s : xdp)
            add(fmt::format("tx{}_xdp_{}", i, s));
}

void appendBufferCongestion(std::vector<CounterSpec>& out)
{
    for (int p = 0; p < 8; ++p)
        for (const char* f :
             {"rx_prio{}_buf_discard", "rx_prio{}_cong_discard", "rx_prio{}_marked"})
            out.push_back({fmt::format(fmt::runtime(f), p), 0, 64, S});
}

std::vector<CounterSpec> buildMlx5Catalog(bool physical_function, unsigned channels)
{
    std::vector<CounterSpec> v;
    append(v, kSoftware);
    append(v, kQueueAndVnic);
    append(v, kVport);
    if (physical_function) {
        append(v, kPhysicalPort);
        appendPerPriority(v);
        append(v, kModule);
    }
    appendChannels(v, channels);
    if (physical_function)
        appendBufferCongestion(v);
    return v;
}

} // namespace

const std::vector<CounterSpec>& mlx5eStatistics(bool physical_function, unsigned channels)
{
    if (channels < 1 || channels > kMaxChannels)
        throw SimError(
            fmt::format("{} channels: a netdev has from 1 to {}", channels, kMaxChannels));
    return keptCatalog(&buildMlx5Catalog, physical_function, channels);
}

const CounterSpec* mlx5eStatistic(std::string_view name)
{
    // Every statistic but the per-channel ones, which a one-channel PF's list holds once each.
    static const auto index = indexByName(
        mlx5eStatistics(true, 1), [](std::string_view n) { return !channelTotal(n).empty(); });
    auto it = index.find(name);
    return it == index.end() ? nullptr : it->second;
}

std::string channelTotal(std::string_view name)
{
    std::string_view kind;
    for (std::string_view k : {"rx", "tx", "ch"})
        if (name.starts_with(k))
            kind = k;
    if (kind.empty())
        return {};
    auto rest = name.substr(kind.size());
    size_t digits = 0;
    while (digits < rest.size() && std::isdigit(static_cast<unsigned char>(rest[digits])))
        ++digits;
    if (digits == 0 || digits == rest.size() || rest[digits] != '_' || digits + 1 == rest.size())
        return {};
    return std::string(kind) + std::string(rest.substr(digits));
}

uint64_t channelShare(uint64_t total, unsigned channel, unsigned channels)
{
    if (channels == 0 || channel >= channels)
        return 0;
    return total / channels + (channel < total % channels ? 1 : 0);
}

} // namespace nicd::sim
