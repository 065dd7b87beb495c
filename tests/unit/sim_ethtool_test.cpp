// The simulator's ethtool statistics print what a real mlx5 netdev prints: the driver's groups in
// its order, per channel for the configured channel count and per priority, every kind a real
// dump has (fixtures/ethtool, kernel 4.15) but what the driver renamed or dropped since; the
// per-channel ones add up to their totals as the driver sums them; and hw_counters/ holds what a
// current kernel's mlx5_ib prints.
#include "ethtool_catalog.hpp"
#include "files.hpp"
#include "sim.hpp"
#include "support/sim_tree.hpp"

#include <regex>

#include <gtest/gtest.h>

namespace fs = std::filesystem;
using namespace nicd;

namespace {

std::vector<std::string> namesOf(const sim::EthtoolStats& stats)
{
    std::vector<std::string> out;
    for (const auto& [name, value] : stats)
        out.push_back(name);
    return out;
}

size_t indexOf(const std::vector<std::string>& names, const std::string& name)
{
    auto it = std::find(names.begin(), names.end(), name);
    EXPECT_NE(it, names.end()) << name;
    return static_cast<size_t>(it - names.begin());
}

// rx12_packets -> rxN_packets: a statistic's kind, whichever channel it is of.
std::string kindOf(const std::string& name)
{
    return std::regex_replace(name, std::regex("^(rx|tx|ch)[0-9]+_"), "$1N_");
}

class SimEthtoolTest : public test::SimDirTest {};

} // namespace

TEST_F(SimEthtoolTest, AConnectX7PrintsThousandsOfStatisticsInTheDriversOrder)
{
    sim::create(dir_, {.devices = 2});
    auto names = namesOf(sim::readEthtool(dir_, "ens1f0np0"));
    // 64 channels by default: 103 statistics each (ch, rq, rq's XDP send queue, sq, XDP send
    // queue), besides the ~380 of the port.
    EXPECT_EQ(
        std::count_if(names.begin(), names.end(), [](const auto& n) { return kindOf(n) != n; }),
        64 * 103);
    EXPECT_GT(names.size(), 6800U);
    EXPECT_EQ(std::set<std::string>(names.begin(), names.end()).size(), names.size())
        << "no name twice";
    for (const char* n : {"rx63_packets", "tx63_cqe_err", "ch63_eq_rearm", "rx63_xdp_tx_cqes",
                          "tx63_xdp_cqes", "rx_prio7_discards", "rx_prio7_marked"})
        EXPECT_NE(std::find(names.begin(), names.end(), n), names.end()) << n;
    EXPECT_EQ(std::find(names.begin(), names.end(), "rx64_packets"), names.end());
    // PFC is on priority 3 only: its pause lines, no other priority's, no global pause.
    for (const auto& n : names) {
        if (n.find("_pause") == std::string::npos || n.find("storm") != std::string::npos)
            continue;
        EXPECT_TRUE(n.starts_with("rx_prio3_") || n.starts_with("tx_prio3_") ||
                    n.ends_with("_pause_ctrl_phy"))
            << n;
    }
    // mlx5e_nic_stats_grps order: sw, qcnt, vnic_env, vport, 802_3, 2863, 2819, phy, eth_ext,
    // pcie, per_prio, pme, channels, per_port_buff_congest.
    EXPECT_EQ(names.front(), "rx_packets");
    std::vector<std::string> order{"rx_packets",
                                   "tx_xsk_cqes",
                                   "rx_out_of_buffer",
                                   "rx_steer_missed_packets",
                                   "rx_vport_unicast_packets",
                                   "tx_packets_phy",
                                   "rx_discards_phy",
                                   "rx_undersize_pkts_phy",
                                   "link_down_events_phy",
                                   "rx_buffer_passed_thres_phy",
                                   "rx_pci_signal_integrity",
                                   "rx_prio0_bytes",
                                   "rx_prio3_pause",
                                   "tx_pause_storm_error_events",
                                   "module_unplug",
                                   "ch0_events",
                                   "ch63_eq_rearm",
                                   "rx0_packets",
                                   "rx0_xdp_tx_xmit",
                                   "rx1_packets",
                                   "tx0_packets",
                                   "tx63_cqe_err",
                                   "tx0_xdp_xmit",
                                   "rx_prio0_buf_discard"};
    for (size_t i = 1; i < order.size(); ++i)
        EXPECT_LT(indexOf(names, order[i - 1]), indexOf(names, order[i]))
            << order[i - 1] << " before " << order[i];
}

TEST_F(SimEthtoolTest, EveryKindOfARealDumpButWhatTheDriverRenamedOrDroppedSince)
{
    // The real dump is a 16-channel ConnectX-4 Lx on 4.15: the same channel count prints more.
    sim::create(dir_, {.devices = 1, .channels = 16});
    auto sim_names = namesOf(sim::readEthtool(dir_, "ens1f0np0"));
    auto real = sim::parseEthtool(
        "NIC statistics:\n" +
        std::regex_replace(
            test::readFile(fs::path(NICD_SHARED_DIR) / "fixtures/ethtool/ethq-tests-mlx5_core.txt"),
            std::regex("(^|\n)"), "$1     "));
    ASSERT_EQ(real.size(), 751U);
    EXPECT_GT(sim_names.size(), real.size());
    std::set<std::string> kinds;
    for (const auto& n : sim_names)
        kinds.insert(kindOf(n));
    // Since 4.15: the rx page cache became a page pool (rx_pp_*), two statistics were renamed,
    // and with PFC on a priority there is no global pause (the dump's port had PFC off).
    const std::map<std::string, std::string> since{
        {"rx_xdp_tx", "rx_xdp_tx_xmit"},
        {"rxN_xdp_tx", "rxN_xdp_tx_xmit"},
        {"rx_mpwqe_filler", "rx_mpwqe_filler_cqes"},
        {"rxN_mpwqe_filler", "rxN_mpwqe_filler_cqes"},
        {"rx_page_reuse", ""},
        {"rxN_page_reuse", ""},
        {"rx_cache_reuse", ""},
        {"rxN_cache_reuse", ""},
        {"rx_cache_full", ""},
        {"rxN_cache_full", ""},
        {"rx_cache_empty", ""},
        {"rxN_cache_empty", ""},
        {"rx_cache_busy", ""},
        {"rxN_cache_busy", ""},
        {"rx_cache_waive", ""},
        {"rxN_cache_waive", ""},
        {"rx_global_pause", "rx_prio3_pause"},
        {"tx_global_pause", "tx_prio3_pause"},
        {"rx_global_pause_duration", "rx_prio3_pause_duration"},
        {"tx_global_pause_duration", "tx_prio3_pause_duration"},
        {"rx_global_pause_transition", "rx_prio3_pause_transition"}};
    for (const auto& [name, value] : real) {
        auto kind = kindOf(name);
        if (auto it = since.find(kind); it != since.end()) {
            EXPECT_FALSE(kinds.contains(kind)) << kind << " is gone from current kernels";
            if (!it->second.empty()) {
                EXPECT_TRUE(kinds.contains(it->second)) << it->second << " replaces " << kind;
            }
            continue;
        }
        EXPECT_TRUE(kinds.contains(kind)) << name << " of the real dump is missing";
    }
}

TEST_F(SimEthtoolTest, PerChannelStatisticsAddUpToTheirTotals)
{
    sim::create(dir_, {.devices = 1, .channels = 8});
    auto sum = [&](const std::string& kind) {
        uint64_t s = 0;
        for (const auto& [name, value] : sim::readEthtool(dir_, "ens1f0np0"))
            if (kindOf(name) == kind)
                s += value;
        return s;
    };
    std::map<std::string, uint64_t> last;
    for (int t = 0; t < 3; ++t) {
        sim::tick(dir_, 1.5);
        EXPECT_GT(sim::counterValue(dir_, "mlx5_0", "rx_packets"), 0U);
        for (std::string total : {"rx_packets", "rx_bytes", "tx_packets", "tx_bytes", "ch_events"})
            EXPECT_EQ(sum(total.substr(0, 2) + "N" + total.substr(2)), // rxN_packets
                      sim::counterValue(dir_, "mlx5_0", total))
                << total;
        for (const auto& [name, value] : sim::readEthtool(dir_, "ens1f0np0")) {
            EXPECT_GE(value, last[name]) << name << " went back";
            last[name] = value;
        }
    }
    // A channel's own injection holds: it climbs by its rate, not its share.
    sim::setRate(dir_, "mlx5_0", "tx3_dropped", 10);
    sim::tick(dir_, 2);
    EXPECT_EQ(sim::counterValue(dir_, "mlx5_0", "tx3_dropped"), 20U);
    EXPECT_EQ(sim::counterValue(dir_, "mlx5_0", "tx2_dropped"), 0U);
}

TEST_F(SimEthtoolTest, ChannelsOutsideTheDriversRangeAreRefused)
{
    EXPECT_THROW(sim::create(dir_ / "a", {.channels = 0}), sim::SimError);
    EXPECT_THROW(sim::create(dir_ / "b", {.channels = sim::kMaxChannels + 1}), sim::SimError);
    EXPECT_EQ(sim::channelTotal("rx12_packets"), "rx_packets");
    EXPECT_EQ(sim::channelTotal("tx0_xdp_xmit"), "tx_xdp_xmit");
    EXPECT_EQ(sim::channelTotal("rx_prio3_pause"), "");
    EXPECT_EQ(sim::channelTotal("rx1_"), "");
    EXPECT_EQ(sim::channelShare(10, 0, 4) + sim::channelShare(10, 1, 4) +
                  sim::channelShare(10, 2, 4) + sim::channelShare(10, 3, 4),
              10U);
}

TEST_F(SimEthtoolTest, HwCountersAreThoseOfACurrentKernel)
{
    sim::create(dir_, {});
    // rdma statistic (RDMA netlink) of a current kernel's mlx5 RoCE port lists the same names as
    // its hw_counters/ directory, which has lifespan besides.
    auto json = test::readFile(fs::path(NICD_SHARED_DIR) /
                               "fixtures/rdma-netlink/spiderpool-rdma-statistic-j.json");
    std::set<std::string> want{"lifespan"};
    std::regex key(R"re("([a-z_]+)": [0-9]+)re");
    for (std::sregex_iterator it(json.begin(), json.end(), key), end; it != end; ++it)
        if ((*it)[1] != "port")
            want.insert((*it)[1]);
    ASSERT_EQ(want.size(), 32U);
    auto ib = fs::canonical(dir_ / "sys/class/infiniband");
    EXPECT_EQ(test::namesIn(ib / "mlx5_0/ports/1/hw_counters"), want);
}
