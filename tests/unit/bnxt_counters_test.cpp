// The bnxt plugin's counters: what each of bnxt_re's hw_counters (under the names before and after
// the ~6.18 rename, ef56081d1864) and bnxt_en's ethtool statistics mean to the daemon's rules,
// which are gauges, and the plugin's read of a bnxt node: bnxt_re's port hw_counters (levels as
// gauges) and the simulator's `ethtool -S` text of its netdev, through the SDK's CounterPoller.
#include "bnxt/counter_meanings.hpp"
#include "support/bnxt_counter_files.hpp"
#include "support/sim_host.hpp"
#include "support/temp_dir.hpp"

#include <nicd/plugin/sdk/counter_poller.h>
#include <nicd/plugin/sdk/sample_batch.h>
#include <nicd/plugin/sdk/vendor_tables.h>

#include <fstream>
#include <map>

#include <gtest/gtest.h>

namespace pv1 = nicd::plugin::v1;
namespace sdk = nicd::plugin::sdk;
using M = pv1::Meaning;

namespace {

pv1::SeriesMeaning hw(const std::string& name)
{
    return nicd::bnxt::meaningOf({"hw_counters", 1, 0, name, pv1::SampleKind::Counter});
}

pv1::SeriesMeaning eth(const std::string& name)
{
    return nicd::bnxt::meaningOf({"ethtool", 1, 1, name, pv1::SampleKind::Counter});
}

} // namespace

// One meaning whichever name the kernel gives the counter (v6.6 hw_counters.c; ef56081d1864).
TEST(BnxtCounterMeanings, BothNameGenerationsMeanTheSame)
{
    const std::pair<const char*, const char*> renamed[] = {
        {"to_retransmits", "local_ack_timeout_err"},
        {"seq_err_naks_rcvd", "packet_seq_err"},
        {"oos_drop_count", "out_of_sequence"},
        {"rx_out_of_buffer", "out_of_buffer"},
        {"tx_cnp_pkts", "np_cnp_pkts"},
        {"rx_cnp_pkts", "rp_cnp_handled"},
        {"rx_ecn_marked_pkts", "np_ecn_marked_roce_packets"},
    };
    const M want[] = {M::LocalAckTimeout, M::SequenceErrorNak, M::OutOfSequence, M::OutOfBuffer,
                      M::CnpSent,         M::CnpHandled,       M::EcnMarked};
    for (size_t i = 0; i < std::size(renamed); ++i) {
        EXPECT_EQ(hw(renamed[i].first).meaning, want[i]) << renamed[i].first;
        EXPECT_EQ(hw(renamed[i].second).meaning, want[i]) << renamed[i].second;
        EXPECT_TRUE(hw(renamed[i].first).wide) << "firmware le64: " << renamed[i].first;
        EXPECT_EQ(hw(renamed[i].first).priority, pv1::kNoPriority);
    }
    // Retries exhausted, the QP in error: the same name before and after the rename.
    EXPECT_EQ(hw("max_retry_exceeded").meaning, M::RetryExceeded);
}

// Counters a rule must not read as faults: RNR NAKs received are a busy receiver, not exhausted
// retries; lifespan is a setting; other sources are not bnxt's to name.
TEST(BnxtCounterMeanings, NoMeaningWhereNoneHolds)
{
    for (const char* name :
         {"rnr_naks_rcvd", "rnr_nak_retry_err", "missing_resp", "implied_nak_seq_err", "dup_req",
          "rx_roce_good_pkts", "lifespan", "active_qps", "np_cnp_sent"})
        EXPECT_EQ(hw(name).meaning, M::None) << name;
    EXPECT_EQ(
        nicd::bnxt::meaningOf({"nicd", 0, 0, "dropped_files", pv1::SampleKind::Gauge}).meaning,
        M::None);
    EXPECT_EQ(nicd::bnxt::meaningOf({"ethtool", 1, 1, "local_ack_timeout_err", {}}).meaning,
              M::None)
        << "a hw_counters name means nothing as an ethtool statistic";
}

// bnxt_en's ethtool names (bnxt_ethtool.c bnxt_port_stats_arr, bnxt_port_stats_ext_arr).
TEST(BnxtCounterMeanings, EthtoolStatisticsPerPriority)
{
    for (uint8_t p = 0; p < 8; ++p) {
        const std::string n = std::to_string(p);
        EXPECT_EQ(eth("rx_pfc_ena_frames_pri" + n).meaning, M::RxPauseFrames);
        EXPECT_EQ(eth("rx_pfc_ena_frames_pri" + n).priority, p);
        EXPECT_EQ(eth("tx_pfc_ena_frames_pri" + n).meaning, M::TxPauseFrames);
        EXPECT_EQ(eth("tx_pfc_ena_frames_pri" + n).priority, p);
        EXPECT_EQ(eth("pfc_pri" + n + "_rx_duration_us").meaning, M::RxPauseDuration);
        EXPECT_EQ(eth("pfc_pri" + n + "_tx_duration_us").meaning, M::TxPauseDuration);
        EXPECT_EQ(eth("pfc_pri" + n + "_rx_transitions").meaning, M::RxPauseTransitions);
        EXPECT_EQ(eth("pfc_pri" + n + "_rx_transitions").priority, p);
        // A CoS queue is no priority (pri2cos is the firmware's): no per-priority drop.
        EXPECT_EQ(eth("rx_discard_packets_cos" + n).meaning, M::None);
    }
    for (const char* bad :
         {"rx_pfc_ena_frames_pri8", "rx_pfc_ena_frames_pri", "rx_pfc_ena_frames_pri10",
          "pfc_pri3_tx_transitions", "pfc_pri9_rx_duration_us"})
        EXPECT_EQ(eth(bad).meaning, M::None) << bad;
    EXPECT_EQ(eth("rx_fcs_err_frames").meaning, M::RxCrcErrors);
    EXPECT_EQ(eth("rx_corrected_bits").meaning, M::FecCorrectedBits);
    EXPECT_EQ(eth("rx_fec_corrected_blocks").meaning, M::None) << "blocks, not bits";
    EXPECT_EQ(eth("rx_stat_discard").meaning, M::RxDiscards);
    EXPECT_EQ(eth("tx_stat_discard").meaning, M::TxDiscards);
    EXPECT_EQ(eth("continuous_roce_pause_events").meaning, M::PauseStormError);
    EXPECT_EQ(eth("link_down_events").meaning, M::LinkDownEvents);
    EXPECT_EQ(eth("[0]: rx_ucast_packets").meaning, M::None);
    EXPECT_TRUE(eth("[0]: rx_ucast_packets").wide) << "bnxt_en accumulates into 64 bits";
}

// The non-statistics entries of kernels before 7fcf00bd are levels; resize_cq_cnt counts but is
// an atomic_t (32 bits).
TEST(BnxtCounterMeanings, GaugesAndWidths)
{
    for (const char* name : {"active_qps", "active_rc_qps", "watermark_qps", "db_fifo_register"}) {
        EXPECT_TRUE(nicd::bnxt::isGauge(name)) << name;
        EXPECT_FALSE(hw(name).wide) << name;
    }
    for (const char* name :
         {"resize_cq_cnt", "pacing_alerts", "to_retransmits", "rx_pkts", "lifespan"})
        EXPECT_FALSE(nicd::bnxt::isGauge(name)) << name;
    EXPECT_FALSE(hw("resize_cq_cnt").wide);
    EXPECT_TRUE(hw("rx_pkts").wide);
}

TEST(BnxtCounterMeanings, DescribeLayoutKeepsTheLayoutsOrder)
{
    pv1::SampleLayout layout;
    layout.series = {{"hw_counters", 1, 0, "active_qps", pv1::SampleKind::Gauge},
                     {"hw_counters", 1, 0, "local_ack_timeout_err", pv1::SampleKind::Counter},
                     {"ethtool", 1, 1, "tx_pfc_ena_frames_pri3", pv1::SampleKind::Counter}};
    std::vector<pv1::SeriesMeaning> out;
    nicd::plugin::sdk::describeSeries(layout, nicd::bnxt::meaningOf, out);
    ASSERT_EQ(out.size(), 3U);
    EXPECT_EQ(out[0].meaning, M::None);
    EXPECT_EQ(out[1].meaning, M::LocalAckTimeout);
    EXPECT_EQ(out[2].meaning, M::TxPauseFrames);
    EXPECT_EQ(out[2].priority, 3);
}

// A simulated bnxt node as the plugin reads it: bnxt_re0's port counters (a 6.8 kernel's set,
// with its gauges) and the netdev's `ethtool -S` text, in the simulator's file.
class BnxtPoll : public nicd::test::TempDirTest {
protected:
    BnxtPoll() : TempDirTest("bnxt-poll") {}

    void SetUp() override
    {
        TempDirTest::SetUp();
        const auto ib = nicd::test::writeBnxtCounterFiles(
            dir_,
            {{"active_qps", "12"},
             {"watermark_qps", "40"},
             {"to_retransmits", "7"},
             {"rx_cnp_pkts", "3"},
             {"lifespan", "10"}},
            "     [0]: rx_ucast_packets: 100\n     rx_pfc_ena_frames_pri3: 9\n"
            "     continuous_roce_pause_events: 0\n");
        dev_.ibdev = "bnxt_re0";
        dev_.driver = "bnxt_en";
        dev_.pci_address = "0000:41:00.0";
        dev_.sysfs_path = ib.string();
        dev_.ports.push_back({1, "Ethernet", {"ens2f0np0"}});
    }

    pv1::DeviceRef dev_;
};

TEST_F(BnxtPoll, HwCountersWithGaugesAndEthtoolStatistics)
{
    nicd::test::SimHost host(dir_);
    sdk::CounterPoller poller(host, nicd::bnxt::isGauge);
    poller.attach();
    std::vector<pv1::Sample> out;
    auto s = poller.poll(dev_, out);
    ASSERT_TRUE(s) << s.message;
    std::map<std::string, pv1::Sample> by;
    for (const auto& x : out)
        by[x.source + "/" + x.name] = x;
    ASSERT_EQ(by.size(), 8U);
    EXPECT_EQ(by["hw_counters/active_qps"].kind, pv1::SampleKind::Gauge);
    EXPECT_EQ(by["hw_counters/watermark_qps"].kind, pv1::SampleKind::Gauge);
    EXPECT_EQ(by["hw_counters/lifespan"].kind, pv1::SampleKind::Gauge);
    EXPECT_EQ(by["hw_counters/to_retransmits"].kind, pv1::SampleKind::Counter);
    EXPECT_EQ(by["hw_counters/to_retransmits"].value, 7U);
    EXPECT_EQ(by["hw_counters/rx_cnp_pkts"].port, 1U);
    EXPECT_EQ(by["ethtool/rx_pfc_ena_frames_pri3"].value, 9U);
    EXPECT_EQ(by["ethtool/rx_pfc_ena_frames_pri3"].netdev, "ens2f0np0");
    EXPECT_EQ(by["ethtool/[0]: rx_ucast_packets"].value, 100U);
    EXPECT_TRUE(host.lines.empty());
}

// A file that fails is backed off and said once, the rest still read (as for mlx5).
TEST_F(BnxtPoll, AGarbledFileIsBackedOffAndTheRestRead)
{
    std::ofstream(dev_.sysfs_path + "/ports/1/hw_counters/to_retransmits") << "garbage\n";
    nicd::test::SimHost host(dir_);
    sdk::CounterPoller poller(host, nicd::bnxt::isGauge);
    poller.attach();
    std::vector<pv1::Sample> out;
    auto s = poller.poll(dev_, out);
    EXPECT_FALSE(s);
    EXPECT_NE(s.message.find("to_retransmits"), std::string::npos) << s.message;
    EXPECT_EQ(out.size(), 7U);
    ASSERT_EQ(host.lines.size(), 1U);
    EXPECT_NE(host.lines[0].find("backing off"), std::string::npos) << host.lines[0];
}
