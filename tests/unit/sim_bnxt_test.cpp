// nicd-sim's Broadcom twin (`create --vendor`): a BCM57608 PF in bnxt_en's and bnxt_re's real
// sysfs layout, names and volume (/work/notes/bnxt-research.md §1, §4, §5), ticks that move its
// counters, and the generic faults acting on it by bnxt's own statistic names.
#include "bnxt_catalog.hpp"
#include "files.hpp"
#include "sim.hpp"
#include "support/sim_tree.hpp"
#include "vendor_catalog.hpp"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

namespace fs = std::filesystem;
using namespace nicd;

namespace {

std::string line(const fs::path& file)
{
    auto text = test::readFile(file);
    return text.substr(0, text.find('\n'));
}

class SimBnxtTest : public test::SimDirTest {
protected:
    // The default node with its RoCE PFs dealt to mlx5 and bnxt: 3 and 2 of 5.
    void createMixed() { sim::create(dir_, {.vendors = "mlx5,bnxt"}); }
    fs::path function(const std::string& bdf) const { return dir_ / "sys/bus/pci/devices" / bdf; }
};

} // namespace

TEST(SimBnxtCatalog, EthtoolPrints26LinesPerRingAnd212ForThePort)
{
    for (unsigned rings : {1U, 8U, 58U, 64U}) {
        const auto& stats = sim::bnxtEthtoolStatistics(true, rings);
        EXPECT_EQ(stats.size(), 26 * rings + 212) << rings << " rings";
        EXPECT_EQ(stats.front().name, "[0]: rx_ucast_packets");
        EXPECT_EQ(stats[26 * rings - 1].name, fmt::format("[{}]: missed_irqs", rings - 1));
        EXPECT_EQ(stats[26 * rings].name, "rx_total_l4_csum_errors");
        EXPECT_EQ(stats.back().name, "tx_packets_pri7");
    }
    EXPECT_EQ(sim::bnxtEthtoolStatistics(false, 4).size(), 26U * 4 + 9) << "a VF: rings only";
    EXPECT_THROW(sim::bnxtEthtoolStatistics(true, 0), sim::SimError);
    for (const char* name :
         {"rx_pfc_ena_frames_pri3", "tx_pfc_ena_frames_pri3", "pfc_pri3_rx_duration_us",
          "continuous_roce_pause_events", "rx_discard_packets_cos3", "link_down_events",
          "rx_corrected_bits", "rx_fec_uncorrectable_blocks", "rx_total_ring_discards"})
        EXPECT_NE(sim::bnxtEthtoolStatistic(name), nullptr) << name;
    EXPECT_EQ(sim::bnxtEthtoolStatistic("rx_prio3_pause"), nullptr) << "mlx5's name";
    EXPECT_EQ(sim::bnxtRingTotal("[12]: rx_ucast_packets"), "rx_packets_cos0");
    EXPECT_EQ(sim::bnxtRingTotal("[12]: rx_discards"), "");
    EXPECT_EQ(sim::bnxtRingTotal("[x]: rx_ucast_packets"), "");
}

TEST(SimBnxtCatalog, HwCountersHaveThe618NamesAndNoGauges)
{
    std::set<std::string> names;
    for (const auto& c : sim::bnxtHwCounters(true))
        names.insert(c.name);
    EXPECT_EQ(names.size(), 73U) << "72 statistics and ib_core's lifespan";
    for (const char* renamed :
         {"local_ack_timeout_err", "packet_seq_err", "rnr_nak_retry_err", "implied_nak_seq_err",
          "duplicate_request", "out_of_sequence", "out_of_buffer", "np_cnp_pkts", "rp_cnp_handled",
          "np_ecn_marked_roce_packets", "req_cqe_error", "resp_cqe_error"})
        EXPECT_TRUE(names.contains(renamed)) << renamed;
    for (const char* gone : {"to_retransmits", "tx_cnp_pkts", "rx_ecn_marked_pkts", "active_qps",
                             "watermark_qps", "pacing_alerts", "db_fifo_register", "np_cnp_sent"})
        EXPECT_FALSE(names.contains(gone)) << gone;
}

TEST(SimBnxtCatalog, VendorListsAreCheckedAndNamed)
{
    EXPECT_EQ(sim::parseVendors("mlx5,bnxt"), (std::vector<std::string>{"mlx5", "bnxt"}));
    EXPECT_EQ(sim::parseVendors("bnxt"), (std::vector<std::string>{"bnxt"}));
    for (const char* bad : {"", "mlx5,", "mlx5,mlx5", "irdma"})
        EXPECT_THROW(sim::parseVendors(bad), sim::SimError) << bad;
    try {
        sim::parseVendors("irdma");
    } catch (const sim::SimError& e) {
        EXPECT_STREQ(e.what(), "unknown NIC vendor 'irdma' (known: mlx5, bnxt)");
    }
}

TEST_F(SimBnxtTest, MixedNodeDealsTheRocePfsAndKeepsMlx5sOwnDevices)
{
    createMixed();
    std::map<std::string, std::string> where;
    for (const auto& d : sim::devices(dir_))
        where[d.name] = d.pci_address + " " + d.role;
    EXPECT_EQ(where, (std::map<std::string, std::string>{{"mlx5_0", "0000:1a:00.0 pf"},
                                                         {"mlx5_1", "0000:3b:00.0 pf"},
                                                         {"mlx5_2", "0000:4c:00.0 pf"},
                                                         {"bnxt_re0", "0000:5d:00.0 pf"},
                                                         {"mlx5_3", "0000:9a:00.0 ib"},
                                                         {"mlx5_bond_0", "0000:ab:00.0 lag"},
                                                         {"mlx5_4", "0000:1a:00.2 vf"},
                                                         {"bnxt_re1", "0000:cd:00.0 pf"}}));
    sim::create(dir_, {.devices = 5, .force = true, .vendors = "bnxt,mlx5"});
    std::set<std::string> names;
    for (const auto& d : sim::devices(dir_))
        names.insert(d.name + " " + d.pci_address);
    EXPECT_EQ(names, (std::set<std::string>{"bnxt_re0 0000:10:00.0", "bnxt_re1 0000:10:00.1",
                                            "bnxt_re2 0000:12:00.0", "mlx5_0 0000:14:00.0",
                                            "mlx5_1 0000:14:00.1"}))
        << "each vendor's PFs on cards of its own";
    EXPECT_THROW(sim::create(dir_, {.force = true, .vendors = "bnxt", .gpus = 8}), sim::SimError);
    EXPECT_THROW(sim::create(dir_, {.force = true, .vendors = "mlx5,irdma"}), sim::SimError);
    EXPECT_EQ(sim::devices(dir_).size(), 5U) << "a refused create leaves the node as it was";
}

TEST_F(SimBnxtTest, ABnxtPfIsLaidOutAsBnxtEnAndBnxtReShowIt)
{
    createMixed();
    auto fn = function("0000:5d:00.0");
    EXPECT_EQ(line(fn / "vendor"), "0x14e4");
    EXPECT_EQ(line(fn / "device"), "0x1760");
    EXPECT_EQ(line(fn / "class"), "0x020000");
    EXPECT_EQ(fs::read_symlink(fn / "driver").filename(), "bnxt_en");
    EXPECT_EQ(fs::read_symlink(fn / "bnxt_en.rdma.0/driver").filename(), "bnxt_re.rdma");
    EXPECT_TRUE(fs::is_symlink(dir_ / "sys/bus/auxiliary/devices/bnxt_en.rdma.0"));
    auto ib = dir_ / "sys/class/infiniband/bnxt_re0";
    EXPECT_EQ(fs::canonical(ib / "device"), fs::canonical(fn)) << "the IB device's parent";
    EXPECT_EQ(line(ib / "node_desc"), "Broadcom NetXtreme-C/E RoCE Driver HCA");
    EXPECT_EQ(line(ib / "hca_type"), "0x1760");
    EXPECT_EQ(line(ib / "hw_rev"), "0x11");
    EXPECT_EQ(line(ib / "fw_ver"), "230.0.157.0");
    EXPECT_EQ(line(ib / "board_id"), "BCM957608-P2200GQF00");
    EXPECT_EQ(test::namesIn(ib / "ports"), std::set<std::string>{"1"});
    EXPECT_EQ(line(ib / "ports/1/link_layer"), "Ethernet");
    EXPECT_EQ(line(ib / "ports/1/gid_attrs/ndevs/1"), "ens4f0np0");
    std::set<std::string> want;
    for (const auto& c : sim::bnxtHwCounters(true))
        want.insert(c.name);
    EXPECT_EQ(test::namesIn(ib / "ports/1/hw_counters"), want);
    EXPECT_TRUE(fs::exists(ib / "ports/1/counters/port_xmit_data")) << "PMA (bnxt_re_process_mad)";
    EXPECT_EQ(fs::canonical(dir_ / "sys/class/net/ens4f0np0/device"), fs::canonical(fn));
    EXPECT_FALSE(fs::exists(dir_ / "sys/class/net/ens4f0np0/ecn")) << "no MOFED ecn/ on bnxt";
    EXPECT_TRUE(fs::exists(dir_ / "sys/class/net/ens1f0np0/ecn")) << "mlx5's kept";
}

TEST_F(SimBnxtTest, HwmonDevlinkAndEthtoolAreBnxtEns)
{
    createMixed();
    auto hwmons = test::namesIn(function("0000:5d:00.0") / "hwmon");
    ASSERT_EQ(hwmons.size(), 1U);
    auto hwmon = function("0000:5d:00.0") / "hwmon" / *hwmons.begin();
    EXPECT_EQ(line(hwmon / "name"), "bnxt_en");
    EXPECT_FALSE(fs::exists(hwmon / "temp1_label")) << "bnxt_hwmon registers no label";
    for (const char* f : {"temp1_input", "temp1_max", "temp1_crit", "temp1_emergency",
                          "temp1_max_alarm", "temp1_crit_alarm", "temp1_emergency_alarm"})
        EXPECT_TRUE(fs::exists(hwmon / f)) << f;
    auto health = nlohmann::json::parse(test::readFile(dir_ / "run/nicd-sim/devlink-health.json"));
    auto fw = health["health"]["pci/0000:5d:00.0"];
    ASSERT_EQ(fw.size(), 1U) << fw.dump();
    EXPECT_EQ(fw[0]["reporter"], "fw");
    EXPECT_FALSE(health["health"].contains("pci/0000:5d:00.0/65535")) << "no port reporters";
    auto stats = sim::readEthtool(dir_, "ens4f0np0");
    EXPECT_EQ(stats.size(), 26U * sim::kDefaultChannels + 212);
    EXPECT_EQ(test::readFile(dir_ / "run/nicd-sim/ethtool/ens4f0np0").substr(0, 56),
              "NIC statistics:\n     [0]: rx_ucast_packets: 0\n     [0]: ")
        << "what `ethtool -S` prints of bnxt_en's \"[%d]: %s\" strings";
    EXPECT_TRUE(fs::exists(dir_ / "run/nicd-sim/ethtool-fec/ens4f0np0"));
}

TEST_F(SimBnxtTest, TicksMoveBnxtCountersAndRingsShareTheStackTraffic)
{
    createMixed();
    sim::tick(dir_, 10);
    EXPECT_GT(sim::counterValue(dir_, "bnxt_re0", "rx_pkts"), 1e7);
    EXPECT_GT(sim::counterValue(dir_, "bnxt_re0", "rx_roce_good_bytes"), 1e10);
    EXPECT_GT(sim::counterValue(dir_, "bnxt_re0", "np_cnp_pkts"), 0U);
    EXPECT_GT(sim::counterValue(dir_, "bnxt_re0", "port_rcv_data"), 0U);
    EXPECT_EQ(sim::counterValue(dir_, "bnxt_re0", "rx_pfc_ena_frames_pri3"), 0U) << "no pause";
    uint64_t rings = 0, cos0 = 0;
    for (const auto& [name, value] : sim::readEthtool(dir_, "ens4f0np0")) {
        if (name.ends_with("]: rx_ucast_packets"))
            rings += value;
        if (name == "rx_packets_cos0")
            cos0 = value;
    }
    EXPECT_GT(cos0, 0U);
    EXPECT_EQ(rings, cos0);
    EXPECT_EQ(sim::counterValue(dir_, "bnxt_re1", "rx_pkts"), 0U) << "its port is down";
}

TEST_F(SimBnxtTest, FaultsMoveBnxtsOwnStatistics)
{
    createMixed();
    sim::congestEcn(dir_, "bnxt_re0", true);
    sim::tick(dir_, 1);
    EXPECT_GE(sim::counterValue(dir_, "bnxt_re0", "np_ecn_marked_roce_packets"), 50000U);
    EXPECT_GE(sim::counterValue(dir_, "bnxt_re0", "np_cnp_pkts"), 20000U);
    EXPECT_GE(sim::counterValue(dir_, "bnxt_re0", "rp_cnp_handled"), 20000U);
    EXPECT_EQ(sim::counterValue(dir_, "bnxt_re0", "pfc_pri3_rx_duration_us"), 2000U);
    sim::pauseStorm(dir_, "bnxt_re0", true);
    sim::tick(dir_, 2);
    EXPECT_EQ(sim::counterValue(dir_, "bnxt_re0", "rx_pfc_ena_frames_pri3"), 20U + 8000U);
    EXPECT_EQ(sim::counterValue(dir_, "bnxt_re0", "continuous_roce_pause_events"), 1U);
    sim::linkDown(dir_, "bnxt_re0");
    EXPECT_EQ(sim::counterValue(dir_, "bnxt_re0", "link_down_events"), 1U);
    EXPECT_EQ(sim::counterValue(dir_, "bnxt_re0", "link_downed"), 1U);

    sim::fwFatal(dir_, "bnxt_re0", true);
    auto health = nlohmann::json::parse(test::readFile(dir_ / "run/nicd-sim/devlink-health.json"));
    EXPECT_EQ(health["health"]["pci/0000:5d:00.0"][0]["state"], "error");
    sim::asicHot(dir_, "bnxt_re0", true);
    auto hwmon = *fs::directory_iterator(function("0000:5d:00.0") / "hwmon");
    EXPECT_EQ(line(hwmon.path() / "temp1_crit_alarm"), "1");
    sim::fwDrift(dir_, "bnxt_re0", true);
    EXPECT_EQ(line(dir_ / "sys/class/infiniband/bnxt_re0/fw_ver"), "229.1.123.0");
    sim::fecDegrade(dir_, "bnxt_re0", true);
    sim::tick(dir_, 1);
    EXPECT_GE(sim::counterValue(dir_, "bnxt_re0", "rx_corrected_bits"), 5e7);
    auto fec = nlohmann::json::parse(test::readFile(dir_ / "run/nicd-sim/ethtool-fec/ens4f0np0"));
    EXPECT_EQ(fec[0]["statistics"]["corrected_bits"]["total"],
              sim::counterValue(dir_, "bnxt_re0", "rx_corrected_bits"))
        << "ethtool --show-fec reads rx_corrected_bits (bnxt_get_fec_stats)";
}
