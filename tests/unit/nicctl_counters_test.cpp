// `nicctl counters`: a device's own counters then each port's; `--rate`: what grew per second.
#include "replies.hpp"

#include <gtest/gtest.h>

using namespace nicctl;

TEST(NicctlCounters, ADeviceListsItsOwnCountersThenEachPorts)
{
    DeviceCounters c;
    c.device = {{"hw_counters.fw_errors", 0}};
    c.ports[1] = {{"counters.symbol_error", 3}, {"counters.link_downed", 1}};
    c.ports[2] = {};
    EXPECT_EQ(renderDeviceCounters("mlx5_0", c), "mlx5_0:\nhw_counters.fw_errors 0\n\n"
                                                 "mlx5_0/1:\ncounters.link_downed  1\n"
                                                 "counters.symbol_error 3\n\n"
                                                 "mlx5_0/2:\n  (none read yet)\n");
    auto j = deviceCountersJson(c);
    EXPECT_EQ(j["ports"]["1"]["counters.symbol_error"], 3);
    EXPECT_EQ(j["device"]["hw_counters.fw_errors"], 0);
    EXPECT_EQ(renderDeviceCounters("mlx5_9", DeviceCounters{}), "mlx5_9: no counters read yet\n");
}

TEST(NicctlCounters, RatesArePerSecondOfWhatGrew)
{
    std::map<std::string, uint64_t> before{{"a", 100}, {"b", 7}, {"c", 50}, {"gone", 1}};
    std::map<std::string, uint64_t> after{{"a", 600}, {"b", 7}, {"c", 10}, {"new", 5}};
    auto rates = counterRates(before, after, 5.0);
    EXPECT_EQ(rates, (std::map<std::string, double>{{"a", 100.0}}))
        << "b did not change, c went back (a reset), new has no first reading";
    EXPECT_EQ(renderRates(rates, after.size() - rates.size()),
              "a 100/s\n(3 counters did not change)\n");
    EXPECT_TRUE(counterRates(before, after, 0).empty());
}

TEST(NicctlConfig, TheConfigurationAsNicdConfTextWithEachSource)
{
    std::vector<std::array<std::string, 4>> rows{
        {"daemon", "PollIntervalMs", "1000", "/etc/nicd/nicd.conf:12"},
        {"daemon", "PmaIntervalMs", "30000", "default"},
        {"counter:symbol_error", "Rate", "5/h", "/etc/nicd/nicd.conf.d/10-a.conf:2"}};
    EXPECT_EQ(renderConfiguration(rows),
              "[daemon]\n"
              "PollIntervalMs=1000  # /etc/nicd/nicd.conf:12\n"
              "PmaIntervalMs=30000  # default\n"
              "\n[counter:symbol_error]\n"
              "Rate=5/h             # /etc/nicd/nicd.conf.d/10-a.conf:2\n");
    auto j = configurationJson(rows);
    EXPECT_EQ(j[1]["source"], "default");
    EXPECT_EQ(j[2]["section"], "counter:symbol_error");
}
