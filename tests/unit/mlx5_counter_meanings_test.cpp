// The mlx5 plugin's table of counter meanings (plugins/mlx5/counter_meanings.hpp): the
// hw_counters and ethtool statistics the daemon's rules read, by source, with their priority and
// width; everything else means nothing. Checked on hand-built names and on a real mlx5 `ethtool
// -S` dump.
#include "counter_meanings.hpp"
#include "support/ethtool_text_stats.hpp"

#include <nicd/plugin/sdk/ethtool_text.h>
#include <nicd/plugin/sdk/vendor_tables.h>

#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

using namespace nicd;
namespace pv1 = nicd::plugin::v1;
using M = pv1::Meaning;

TEST(Mlx5CounterMeanings, HwCountersByName)
{
    struct Case {
        const char* name;
        M meaning;
        bool wide;
    };
    for (const auto& c :
         {Case{"local_ack_timeout_err", M::LocalAckTimeout, false},
          Case{"out_of_buffer", M::OutOfBuffer, false},
          Case{"out_of_sequence", M::OutOfSequence, false},
          Case{"packet_seq_err", M::SequenceErrorNak, false},
          Case{"roce_adp_retrans", M::AdaptiveRetransmit, false},
          Case{"roce_slow_restart", M::SlowRestart, false},
          Case{"rnr_nak_retry_err", M::RnrRetryExceeded, false},
          Case{"np_ecn_marked_roce_packets", M::EcnMarked, true},
          Case{"np_cnp_sent", M::CnpSent, true}, Case{"rp_cnp_handled", M::CnpHandled, true},
          Case{"rp_cnp_ignored", M::CnpIgnored, true}, Case{"rx_icrc_encapsulated", M::None, true},
          Case{"rx_write_requests", M::None, false}}) {
        auto m = mlx5::counterMeaning("hw_counters", c.name);
        EXPECT_EQ(m.meaning, c.meaning) << c.name;
        EXPECT_EQ(m.priority, pv1::kNoPriority) << c.name;
        EXPECT_EQ(m.wide, c.wide) << c.name;
    }
    EXPECT_EQ(mlx5::counterMeaning("ethtool", "out_of_buffer").meaning, M::None)
        << "a name means something in its own source only";
    EXPECT_EQ(mlx5::counterMeaning("hw_counters", "rx_prio3_pause").meaning, M::None);
}

TEST(Mlx5CounterMeanings, EthtoolPerPriorityStatistics)
{
    for (uint8_t p = 0; p < 8; ++p) {
        const std::string n = std::to_string(p);
        auto check = [&](const std::string& name, M meaning) {
            auto m = mlx5::counterMeaning("ethtool", name);
            EXPECT_EQ(m.meaning, meaning) << name;
            EXPECT_EQ(m.priority, p) << name;
            EXPECT_TRUE(m.wide) << name;
        };
        check("rx_prio" + n + "_pause", M::RxPauseFrames);
        check("tx_prio" + n + "_pause", M::TxPauseFrames);
        check("rx_prio" + n + "_pause_duration", M::RxPauseDuration);
        check("tx_prio" + n + "_pause_duration", M::TxPauseDuration);
        check("rx_prio" + n + "_pause_transition", M::RxPauseTransitions);
        check("rx_prio" + n + "_discards", M::RxPriorityDrops);
    }
    for (const char* name : {"rx_prio8_pause", "rx_prio33_pause", "rx_prio_pause",
                             "tx_prio3_pause_transition", "tx_prio3_discards", "rx_prio3_bytes",
                             "rx_prio3_pause_duration_x", "rx_global_pause", "rx_prio"})
        EXPECT_EQ(mlx5::counterMeaning("ethtool", name).meaning, M::None) << name;
}

// A ConnectX `ethtool -S` of 751 statistics: five mean something to the rules.
TEST(Mlx5CounterMeanings, ARealEthtoolDump)
{
    std::ifstream in(std::string(NICD_SHARED_DIR) + "/fixtures/ethtool/ethq-tests-mlx5_core.txt");
    ASSERT_TRUE(in);
    std::stringstream text;
    text << in.rdbuf();
    pv1::SampleLayout layout;
    for (const auto& [name, value] : test::parseEthtoolText(text.str()))
        layout.series.push_back({"ethtool", 1, 1, name, pv1::SampleKind::Counter});
    ASSERT_EQ(layout.series.size(), 751U);
    std::vector<pv1::SeriesMeaning> out;
    plugin::sdk::describeSeries(layout, mlx5::meaningOf, out);
    ASSERT_EQ(out.size(), layout.series.size());
    std::map<std::string, M> meant;
    for (size_t i = 0; i < out.size(); ++i) {
        EXPECT_TRUE(out[i].wide) << layout.series[i].name;
        if (out[i].meaning != M::None)
            meant[layout.series[i].name] = out[i].meaning;
    }
    EXPECT_EQ(meant, (std::map<std::string, M>{{"rx_crc_errors_phy", M::RxCrcErrors},
                                               {"rx_discards_phy", M::RxDiscards},
                                               {"tx_discards_phy", M::TxDiscards},
                                               {"rx_corrected_bits_phy", M::FecCorrectedBits},
                                               {"link_down_events_phy", M::LinkDownEvents}}));
}
