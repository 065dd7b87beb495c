// [textfile] Counters=: the textfile carries the curated counters by default (PFC pauses on each
// device's own lossless priorities, never a per-channel statistic), every statistic with all, no
// counter with none, and statistic globs on top; the rest of the file does not change with it.
#include "config/value_parsers.hpp"
#include "support/config_files.hpp"
#include "support/health_fixture.hpp"
#include "support/render_textfile.hpp"
#include "textfile/counter_budget.hpp"

#include <algorithm>
#include <regex>

#include <gtest/gtest.h>

using namespace nicd;
using nicd::test::renderTextfile;
using ConfigLoad = nicd::test::ConfigLoad;

namespace {

// A RoCE PF as the mlx5 plugin and the PMA reader report it, with a few of the thousands of
// statistics a real netdev prints per channel and per priority.
Snapshot roceNode(const std::vector<std::string>& devices)
{
    Snapshot s;
    for (const auto& dev : devices) {
        auto d = test::device(dev, 4);
        d.ports[0].netdevs = {"eth_" + dev};
        s.inventory.devices.push_back(d);
        DeviceSamples ds;
        ds.ibdev = dev;
        std::vector<Sample> samples{
            {kSourceIbCounters, 1, "", "port_rcv_data_bytes", 4000},
            {kSourceIbCounters, 1, "", "symbol_error", 1},
            {kSourceIbCounters, 1, "", "unicast_rcv_packets", 9},
            {kSourceHwCounters, 1, "", "out_of_buffer", 2},
            {kSourceHwCounters, 1, "", "rx_write_requests", 7},
            {kSourceHwCounters, 1, "", "lifespan", 12, SampleKind::Gauge},
        };
        for (const char* stat :
             {"rx_packets", "rx0_packets", "rx1_packets", "tx0_bytes", "ch0_events",
              "rx_discards_phy", "rx_prio3_pause", "rx_prio4_pause", "tx_prio3_pause_duration",
              "rx_prio3_bytes", "rx_prio3_discards", "np_made_up"})
            samples.push_back({kSourceEthtool, 1, "eth_" + dev, stat, 5});
        samples.push_back({"rdma_netlink", 1, "", "rx_write_requests", 3});
        test::addMlx5Samples(ds, samples);
        s.samples.push_back(std::move(ds));
    }
    return s;
}

// The statistic names of `family` written for `device` (the label after device and port).
std::set<std::string> written(const std::string& text, const std::string& family,
                              const std::string& device)
{
    std::set<std::string> out;
    std::regex re(
        family + R"re(\{device=")re" + device +
        R"re(",port="1",(?:netdev="[^"]*",)?(?:counter|stat|source="[^"]*",name)="([^"]+)"\})re");
    for (std::sregex_iterator it(text.begin(), text.end(), re), end; it != end; ++it)
        out.insert((*it)[1]);
    return out;
}

Config configWith(const std::string& counters)
{
    Config c = defaultConfig();
    c.textfile.counters = *config::parseTextfileCounters(counters);
    return c;
}

} // namespace

TEST(TextfileBudget, DefaultCarriesTheCuratedCountersOnTheLosslessPriorityOnly)
{
    auto text = renderTextfile(roceNode({"mlx5_0"}), textfile::CounterBudget(defaultConfig()));
    EXPECT_EQ(
        written(text, "nicd_netdev_ethtool_total", "mlx5_0"),
        (std::set<std::string>{"rx_discards_phy", "rx_prio3_pause", "tx_prio3_pause_duration"}))
        << "no per-channel statistic, no pause of priority 4 (PFC off there), no traffic total\n"
        << text;
    EXPECT_EQ(written(text, "nicd_ib_port_pma_total", "mlx5_0"),
              (std::set<std::string>{"symbol_error"}));
    EXPECT_EQ(written(text, "nicd_port_hw_stat_total", "mlx5_0"),
              (std::set<std::string>{"out_of_buffer"}));
    EXPECT_TRUE(written(text, "nicd_source_stat_total", "mlx5_0").empty());
    EXPECT_EQ(text.find("nicd_port_hw_value{"), std::string::npos) << "lifespan is a setting";
    EXPECT_NE(text.find("nicd_ib_port_receive_bytes_total{device=\"mlx5_0\",port=\"1\"} 4000"),
              std::string::npos);
}

TEST(TextfileBudget, EachDeviceHasItsOwnLosslessPriorities)
{
    Config c = defaultConfig();
    c.devices["mlx5_1"].pfc_priorities = std::vector<uint8_t>{3, 4};
    c.devices["mlx5_2"].pfc_priorities = std::vector<uint8_t>{};
    auto text =
        renderTextfile(roceNode({"mlx5_0", "mlx5_1", "mlx5_2"}), textfile::CounterBudget(c));
    auto pauses = [&](const std::string& dev) {
        std::set<std::string> out;
        for (const auto& s : written(text, "nicd_netdev_ethtool_total", dev))
            if (s.find("pause") != std::string::npos)
                out.insert(s);
        return out;
    };
    EXPECT_EQ(pauses("mlx5_0"),
              (std::set<std::string>{"rx_prio3_pause", "tx_prio3_pause_duration"}));
    EXPECT_EQ(pauses("mlx5_1"), (std::set<std::string>{"rx_prio3_pause", "rx_prio4_pause",
                                                       "tx_prio3_pause_duration"}));
    EXPECT_TRUE(pauses("mlx5_2").empty()) << "PFC off on mlx5_2: no lossless priority";
}

TEST(TextfileBudget, AllWritesEverySeriesAndNoneNoCounterSeries)
{
    auto snap = roceNode({"mlx5_0"});
    auto all = renderTextfile(snap, textfile::CounterBudget(configWith("all")));
    EXPECT_EQ(all, renderTextfile(snap)) << "all is what a render without a budget writes";
    EXPECT_EQ(written(all, "nicd_netdev_ethtool_total", "mlx5_0").size(), 12U);
    EXPECT_NE(all.find("nicd_port_hw_value{device=\"mlx5_0\",port=\"1\",counter=\"lifespan\"}"),
              std::string::npos);

    auto none = renderTextfile(snap, textfile::CounterBudget(configWith("none")));
    for (const char* family :
         {"nicd_ib_port_receive_bytes_total", "nicd_ib_port_pma_total", "nicd_port_hw_stat_total",
          "nicd_netdev_ethtool_total", "nicd_source_stat_total"}) {
        EXPECT_EQ(none.find(std::string("\n") + family + "{"), std::string::npos) << family;
        EXPECT_NE(none.find(std::string("# TYPE ") + family + " "), std::string::npos)
            << family << " keeps its HELP and TYPE";
    }
    // What is not a counter series is the same for none and default; all adds the other families'
    // details (a state that does not hold, a device that dropped no file) and takes none away.
    auto rest = [](const std::string& text) {
        std::vector<std::string> out;
        std::istringstream in(text);
        for (std::string line; std::getline(in, line);)
            if (!std::regex_search(line,
                                   std::regex("^nicd_(ib_port|port_hw|netdev_ethtool|source)")))
                out.push_back(line);
        return out;
    };
    auto by_default = renderTextfile(snap, textfile::CounterBudget(configWith("default")));
    EXPECT_EQ(rest(none), rest(by_default));
    auto details = rest(all);
    EXPECT_GT(details.size(), rest(none).size());
    for (const auto& line : rest(none))
        EXPECT_NE(std::find(details.begin(), details.end(), line), details.end()) << line;
    EXPECT_NE(none.find("\nnicd_up 1\n"), std::string::npos);
}

TEST(TextfileBudget, GlobsAddStatisticsOfAnySource)
{
    auto snap = roceNode({"mlx5_0"});
    auto text = renderTextfile(
        snap, textfile::CounterBudget(configWith("default rx_prio*_bytes rx_write_*")));
    auto ethtool = written(text, "nicd_netdev_ethtool_total", "mlx5_0");
    EXPECT_TRUE(ethtool.contains("rx_prio3_bytes"));
    EXPECT_FALSE(ethtool.contains("rx_prio3_discards"));
    EXPECT_TRUE(written(text, "nicd_port_hw_stat_total", "mlx5_0").contains("rx_write_requests"));
    EXPECT_EQ(written(text, "nicd_source_stat_total", "mlx5_0"),
              (std::set<std::string>{"rx_write_requests"}));

    auto only = renderTextfile(snap, textfile::CounterBudget(configWith("none rx?_packets")));
    EXPECT_EQ(written(only, "nicd_netdev_ethtool_total", "mlx5_0"),
              (std::set<std::string>{"rx0_packets", "rx1_packets"}));
    EXPECT_TRUE(written(only, "nicd_ib_port_pma_total", "mlx5_0").empty());
}

TEST_F(ConfigLoad, TextfileCountersTakesASetAndGlobs)
{
    EXPECT_EQ(defaultConfig().textfile.counters.set, CounterSet::Default);
    Config c = loaded("[textfile]\nCounters=none rx_prio*_pause np_cnp_sent\n");
    EXPECT_EQ(c.textfile.counters.set, CounterSet::None);
    EXPECT_EQ(c.textfile.counters.extra,
              (std::vector<std::string>{"rx_prio*_pause", "np_cnp_sent"}));
    EXPECT_EQ(loaded("[textfile]\nCounters=ALL\n").textfile.counters.set, CounterSet::All);
    EXPECT_EQ(loaded("[textfile]\nCounters=\n").textfile.counters.set, CounterSet::Default);

    EXPECT_EQ(onlyError("[textfile]\n\nCounters=some\n"),
              mainFile() +
                  ":3: [textfile] Counters=some: expected default, all or none, then (not after "
                  "all) statistic-name globs to add, e.g. 'default rx_prio*_bytes np_cnp_sent'");
    EXPECT_EQ(onlyError("[textfile]\nCounters=all rx_prio*_bytes\n"),
              mainFile() +
                  ":2: [textfile] Counters=all rx_prio*_bytes: all writes every statistic "
                  "already: a glob after it ('rx_prio*_bytes') adds nothing; use default or none "
                  "with globs");
    EXPECT_EQ(onlyError("[textfile]\nCounters=default rx\"x\n"),
              mainFile() +
                  ":2: [textfile] Counters=default rx\"x: 'rx\"x' is not a statistic glob: "
                  "letters, digits, _ . : - and the glob characters * ? [ ] !");
}
