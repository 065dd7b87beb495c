// What a cycle keeps of a plugin's read (collect/statistics_filter.hpp): of the netdev statistics,
// those that mean something to nicd and those a [textfile] Counters= glob names; every other
// source whole; everything for a device asked whole or with Counters=all. The values stay with
// their names, and devices of one layout share one kept layout.
#include "collect/statistics_filter.hpp"
#include "support/mlx5_samples.hpp"

#include <map>
#include <string>

#include <gtest/gtest.h>

using namespace nicd;

namespace {

// A ConnectX port's read in small: two hw_counters, a priority's pauses (PfcPriorities=3), the
// CRC errors, and per-channel statistics nothing reads each cycle.
DeviceSamples read(const std::string& ibdev, uint64_t base)
{
    DeviceSamples ds;
    ds.ibdev = ibdev;
    test::addMlx5Samples(
        ds, {
                {"counters", 1, "", "symbol_error", base + 1, SampleKind::Counter},
                {"hw_counters", 1, "", "out_of_buffer", base + 2, SampleKind::Counter},
                {"hw_counters", 1, "", "rx_write_requests", base + 3, SampleKind::Counter},
                {"ethtool", 1, "eth2", "rx0_packets", base + 4, SampleKind::Counter},
                {"ethtool", 1, "eth2", "rx_prio3_pause", base + 5, SampleKind::Counter},
                {"ethtool", 1, "eth2", "tx63_xdp_cqes", base + 6, SampleKind::Counter},
                {"ethtool", 1, "eth2", "rx_crc_errors_phy", base + 7, SampleKind::Counter},
            });
    return ds;
}

std::map<std::string, uint64_t> values(const DeviceSamples& ds)
{
    std::map<std::string, uint64_t> out;
    for (const auto& s : ds.samples())
        out[s.source + "." + s.name] = s.value;
    return out;
}

} // namespace

TEST(StatisticsFilter, KeepsWhatACycleUsesAndEveryOtherSourceWhole)
{
    collect::StatisticsFilter filter;
    filter.configure({CounterSet::Default, {}});
    auto ds = read("mlx5_0", 100);
    filter.apply(ds, false);
    EXPECT_FALSE(ds.all_statistics);
    EXPECT_EQ(values(ds), (std::map<std::string, uint64_t>{
                              {"counters.symbol_error", 101},
                              {"hw_counters.out_of_buffer", 102},
                              {"hw_counters.rx_write_requests", 103},
                              {"ethtool.rx_prio3_pause", 105},
                              {"ethtool.rx_crc_errors_phy", 107},
                          }));
    // The meanings still go with their series: the rules read the pauses as pauses.
    for (const auto& s : ds.samples()) {
        if (s.name == "rx_prio3_pause") {
            EXPECT_EQ(s.meaning, Meaning::RxPauseFrames);
        }
    }
    EXPECT_EQ(ds.plugin.netdevOf(ds.plugin.layout->series.back()), "eth2");

    // Devices and cycles of one layout share one kept layout: nothing is made per value.
    auto a = read("mlx5_0", 300);
    auto b = read("mlx5_1", 400);
    b.plugin.layout = a.plugin.layout; // one layout, as the SDK interns it
    b.meanings = a.meanings;
    filter.apply(a, false);
    filter.apply(b, false);
    EXPECT_EQ(a.plugin.layout.get(), b.plugin.layout.get());
    EXPECT_EQ(values(b).at("ethtool.rx_prio3_pause"), 405U);
}

TEST(StatisticsFilter, AWholeDeviceAllAndGlobsKeepMore)
{
    collect::StatisticsFilter filter;
    filter.configure({CounterSet::Default, {}});
    auto whole = read("mlx5_0", 0);
    const auto before = values(whole);
    filter.apply(whole, true);
    EXPECT_TRUE(whole.all_statistics);
    EXPECT_EQ(values(whole), before);

    filter.configure({CounterSet::All, {}});
    auto all = read("mlx5_0", 0);
    filter.apply(all, false);
    EXPECT_TRUE(all.all_statistics);
    EXPECT_EQ(values(all), before);

    filter.configure({CounterSet::None, {"rx[0-9]*_packets"}});
    auto globbed = read("mlx5_0", 0);
    filter.apply(globbed, false);
    EXPECT_FALSE(globbed.all_statistics);
    auto kept = values(globbed);
    EXPECT_TRUE(kept.contains("ethtool.rx0_packets"));
    EXPECT_FALSE(kept.contains("ethtool.tx63_xdp_cqes"));
    EXPECT_TRUE(kept.contains("ethtool.rx_prio3_pause"))
        << "its meaning keeps it, whatever the set";
}

TEST(StatisticsFilter, APluginThatSaysNothingOfItsSeriesKeepsOnlyItsOtherSources)
{
    collect::StatisticsFilter filter;
    filter.configure({CounterSet::Default, {}});
    DeviceSamples ds;
    ds.ibdev = "acme_0";
    addSamples(ds, {{"hw_counters", 1, "", "drops", 1, SampleKind::Counter},
                    {"ethtool", 1, "eth0", "rx_queue_0_packets", 2, SampleKind::Counter}});
    filter.apply(ds, false);
    EXPECT_EQ(values(ds), (std::map<std::string, uint64_t>{{"hw_counters.drops", 1}}));
    EXPECT_EQ(ds.meanings, nullptr);
}
