// The textfile of one snapshot: the series and values an operator queries, one label set per
// family, and nothing published for a value the kernel did not give.
#include "support/render_textfile.hpp"

#include <map>
#include <regex>
#include <set>
#include <sstream>

#include <gtest/gtest.h>

using namespace nicd;
using nicd::test::renderTextfile;

namespace {

Port port(uint32_t num, int state, int phys, std::vector<std::string> netdevs)
{
    Port p;
    p.num = num;
    p.state = state;
    p.phys_state = phys;
    p.link_layer = "Ethernet";
    p.rate = "400 Gb/sec (4X NDR)";
    p.rate_gbps = 400;
    p.netdevs = std::move(netdevs);
    return p;
}

Snapshot sampleSnapshot()
{
    Snapshot s;
    Device d;
    d.ibdev = "mlx5_0";
    d.pci_address = "0000:3b:00.0";
    d.driver = "mlx5_core";
    d.fw_ver = "28.41.1000";
    d.board_id = "MT_\"0000\"";
    d.hca_type = "MT4129";
    d.plugin = "mlx5";
    d.numa_node = 1;
    d.ports.push_back(port(1, 1, 3, {"ens1f0np0"}));
    s.inventory.devices.push_back(d);

    Device vf; // a VF whose port state files could not be read
    vf.ibdev = "mlx5_4";
    vf.function = DeviceFunction::VirtualFunction;
    Port unknown;
    unknown.num = 1;
    unknown.netdevs = {"ens1f0v0"};
    vf.ports.push_back(unknown);
    s.inventory.devices.push_back(vf);

    s.netdevs["ens1f0np0"] = {"ens1f0np0", "down", false, 7};
    s.netdevs["ens1f0v0"] = {"ens1f0v0", "up", std::nullopt, 9}; // carrier unreadable

    DeviceSamples ds;
    ds.ibdev = "mlx5_0";
    addSamples(ds, {
                       {"counters", 1, "", "symbol_error", 500, SampleKind::Counter},
                       {"counters", 1, "", "port_rcv_data_bytes", 4000, SampleKind::Counter},
                       {"counters", 1, "", "port_xmit_data_bytes", 8000, SampleKind::Counter},
                       {"counters", 1, "", "port_rcv_packets", 10, SampleKind::Counter},
                       {"counters", 1, "", "port_xmit_packets", 20, SampleKind::Counter},
                       {"hw_counters", 1, "", "out_of_buffer", 18446744073709551615ULL,
                        SampleKind::Counter},
                       {"hw_counters", 1, "", "lifespan", 12, SampleKind::Gauge},
                       {"ethtool", 1, "ens1f0np0", "rx_prio3_pause", 9, SampleKind::Counter},
                       {"ethtool", 1, "ens1f0np0", "module_temp", 45, SampleKind::Gauge},
                       {"dcb", 1, "ens1f0np0", "pfc_requests", 3, SampleKind::Counter},
                       {"dcb", 1, "ens1f0np0", "pfc_enabled_mask", 8, SampleKind::Gauge},
                   });
    s.samples.push_back(ds);

    PluginStatus ps;
    ps.name = "mlx5";
    ps.version = "0.1.0";
    ps.abi_major = 1;
    ps.abi_minor = 2;
    ps.state = PluginState::Degraded;
    ps.devices = 1;
    s.plugins.push_back(ps);
    PluginStatus broken;
    broken.name = "acme";
    broken.state = PluginState::Failed;
    s.plugins.push_back(broken);

    s.cycle = 3;
    s.timestamp_seconds = 1700000000.25;
    s.duration_seconds = 0.004;
    s.read_errors_total = 2;
    return s;
}

bool has(const std::string& text, const std::string& line)
{
    return text.find("\n" + line + "\n") != std::string::npos;
}
} // namespace

TEST(Textfile, PublishesNicdItself)
{
    auto text = renderTextfile(sampleSnapshot());
    EXPECT_TRUE(has(text, "nicd_up 1"));
    EXPECT_TRUE(has(text, "nicd_last_cycle_timestamp_seconds 1700000000.25"));
    EXPECT_TRUE(has(text, "nicd_cycle_duration_seconds 0.004"));
    EXPECT_TRUE(has(text, "nicd_cycles_total 3"));
    EXPECT_TRUE(has(text, "nicd_read_errors_total 2"));
}

// Counter files nicd no longer reads, per device; the plugin's report of its own (a kSourceNicd
// gauge it hands the daemon) is counted there, not published as a counter of the device.
TEST(Textfile, PublishesDroppedFilesPerDeviceAndNotThePluginsReport)
{
    auto snap = sampleSnapshot();
    snap.samples[0].files_dropped = 2;
    addSamples(snap.samples[0], {{"nicd", 0, "", "dropped_files", 1, SampleKind::Gauge}});
    auto text = renderTextfile(snap);
    EXPECT_TRUE(has(text, "nicd_dropped_files{device=\"mlx5_0\"} 2"));
    EXPECT_EQ(text.find("source=\"nicd\""), std::string::npos) << text;
    EXPECT_EQ(text.find("dropped_files\""), std::string::npos);
}

TEST(Textfile, PublishesIdentityAndLinkState)
{
    auto text = renderTextfile(sampleSnapshot());
    EXPECT_TRUE(
        has(text,
            "nicd_device_info{device=\"mlx5_0\",pci_address=\"0000:3b:00.0\",driver=\"mlx5_core\","
            "fw_version=\"28.41.1000\",board_id=\"MT_\\\"0000\\\"\",hca_type=\"MT4129\",role="
            "\"storage\",function=\"pf\","
            "plugin=\"mlx5\",numa_node=\"1\"} 1"));
    EXPECT_TRUE(has(
        text,
        "nicd_device_info{device=\"mlx5_4\",pci_address=\"\",driver=\"\","
        "fw_version=\"\",board_id=\"\",hca_type=\"\",role=\"storage\",function=\"vf\",plugin=\"\","
        "numa_node=\"\"} 1"));
    EXPECT_TRUE(has(text, "nicd_port_info{device=\"mlx5_0\",port=\"1\",link_layer=\"Ethernet\","
                          "rate=\"400 Gb/sec (4X NDR)\"} 1"));
    EXPECT_TRUE(
        has(text, "nicd_port_rate_bytes_per_second{device=\"mlx5_0\",port=\"1\"} 50000000000"));
    EXPECT_TRUE(has(text, "nicd_port_state{device=\"mlx5_0\",port=\"1\"} 1"));
    EXPECT_TRUE(has(text, "nicd_port_phys_state{device=\"mlx5_0\",port=\"1\"} 3"));
    EXPECT_TRUE(has(text, "nicd_netdev_up{device=\"mlx5_0\",port=\"1\",netdev=\"ens1f0np0\"} 0"));
    EXPECT_TRUE(has(text, "nicd_netdev_up{device=\"mlx5_4\",port=\"1\",netdev=\"ens1f0v0\"} 1"));
    EXPECT_TRUE(
        has(text, "nicd_netdev_carrier{device=\"mlx5_0\",port=\"1\",netdev=\"ens1f0np0\"} 0"));
}

TEST(Textfile, LeavesOutWhatTheKernelDidNotSay)
{
    auto text = renderTextfile(sampleSnapshot());
    // mlx5_4's port has no state, phys_state or rate, and its netdev no carrier: no sample
    // rather than a misleading 0.
    for (const char* family : {"nicd_port_state{", "nicd_port_phys_state{",
                               "nicd_port_rate_bytes_per_second{", "nicd_netdev_carrier{"}) {
        EXPECT_EQ(text.find(std::string(family) + "device=\"mlx5_4\""), std::string::npos)
            << family;
    }
}

TEST(Textfile, PublishesEveryCounterInTheFamilyOfItsSourceAndKind)
{
    auto text = renderTextfile(sampleSnapshot());
    const std::string dp = "{device=\"mlx5_0\",port=\"1\"";
    EXPECT_TRUE(has(text, "nicd_ib_port_receive_bytes_total" + dp + "} 4000"));
    EXPECT_TRUE(has(text, "nicd_ib_port_transmit_bytes_total" + dp + "} 8000"));
    EXPECT_TRUE(has(text, "nicd_ib_port_receive_packets_total" + dp + "} 10"));
    EXPECT_TRUE(has(text, "nicd_ib_port_transmit_packets_total" + dp + "} 20"));
    EXPECT_TRUE(has(text, "nicd_ib_port_pma_total" + dp + ",counter=\"symbol_error\"} 500"));
    EXPECT_EQ(text.find("counter=\"port_rcv_data_bytes\""), std::string::npos)
        << "the data counters have their own families";
    EXPECT_TRUE(has(text, "nicd_port_hw_stat_total" + dp +
                              ",counter=\"out_of_buffer\"} 18446744073709551615"));
    EXPECT_TRUE(has(text, "nicd_port_hw_value" + dp + ",counter=\"lifespan\"} 12"));
    EXPECT_TRUE(has(text, "nicd_netdev_ethtool_total" + dp +
                              ",netdev=\"ens1f0np0\",stat=\"rx_prio3_pause\"} 9"));
    EXPECT_TRUE(has(text, "nicd_netdev_ethtool_value" + dp +
                              ",netdev=\"ens1f0np0\",stat=\"module_temp\"} 45"));
    EXPECT_TRUE(has(text, "nicd_source_stat_total" + dp +
                              ",netdev=\"ens1f0np0\",source=\"dcb\",name=\"pfc_requests\"} 3"));
    EXPECT_TRUE(has(text, "nicd_source_value" + dp +
                              ",netdev=\"ens1f0np0\",source=\"dcb\",name=\"pfc_enabled_mask\"} 8"));
}

TEST(Textfile, PublishesPluginsAsInfoUpAndStateSet)
{
    auto text = renderTextfile(sampleSnapshot());
    EXPECT_TRUE(has(text, "nicd_plugin_info{plugin=\"mlx5\",version=\"0.1.0\",abi=\"1.2\"} 1"));
    EXPECT_TRUE(has(text, "nicd_plugin_up{plugin=\"mlx5\"} 1"));
    EXPECT_TRUE(has(text, "nicd_plugin_up{plugin=\"acme\"} 0"));
    EXPECT_TRUE(has(text, "nicd_plugin_devices{plugin=\"mlx5\"} 1"));
    int current = 0;
    for (const char* state : {"running", "degraded", "disabled", "failed"}) {
        auto line = std::string("nicd_plugin_state{plugin=\"mlx5\",state=\"") + state + "\"} ";
        bool one = has(text, line + "1");
        EXPECT_TRUE(one || has(text, line + "0")) << line;
        current += one ? 1 : 0;
    }
    EXPECT_EQ(current, 1);
    EXPECT_TRUE(has(text, "nicd_plugin_state{plugin=\"mlx5\",state=\"degraded\"} 1"));
    EXPECT_TRUE(has(text, "nicd_plugin_state{plugin=\"acme\",state=\"failed\"} 1"));
}

TEST(Textfile, EveryFamilyHasOneHelpOneTypeOneLabelSetAndNoTimestamps)
{
    auto snap = sampleSnapshot();
    snap.samples.push_back(snap.samples.front()); // a second device with the same counters
    snap.samples.back().ibdev = "mlx5_1";
    auto text = renderTextfile(snap);
    std::map<std::string, int> help, type;
    std::map<std::string, std::set<std::string>> label_names;
    std::istringstream in(text);
    std::string line;
    std::string current;
    static const std::regex sample(R"(^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$)");
    static const std::regex label(R"re(([a-zA-Z_][a-zA-Z0-9_]*)="(?:[^"\\]|\\.)*")re");
    while (std::getline(in, line)) {
        if (line.starts_with("# HELP ")) {
            current = line.substr(7, line.find(' ', 7) - 7);
            ++help[current];
            continue;
        }
        if (line.starts_with("# TYPE ")) {
            ++type[line.substr(7, line.find(' ', 7) - 7)];
            continue;
        }
        std::smatch m;
        ASSERT_TRUE(std::regex_match(line, m, sample)) << "timestamp or junk in: " << line;
        EXPECT_EQ(m[1].str(), current) << "sample outside its family: " << line;
        EXPECT_TRUE(m[1].str().starts_with("nicd_")) << line;
        std::string names;
        auto labels = m[3].str();
        for (std::sregex_iterator it(labels.begin(), labels.end(), label), end; it != end; ++it)
            names += (*it)[1].str() + ",";
        label_names[current].insert(names);
    }
    EXPECT_GT(help.size(), 20U);
    for (const auto& [name, n] : help) {
        EXPECT_EQ(n, 1) << name;
        EXPECT_EQ(type[name], 1) << name;
    }
    for (const auto& [name, sets] : label_names)
        EXPECT_EQ(sets.size(), 1U) << name << " has several label sets";
}

TEST(Textfile, IsTheSameForTheSameSnapshot)
{
    auto snap = sampleSnapshot();
    auto first = renderTextfile(snap);
    EXPECT_EQ(first, renderTextfile(snap)); // nothing carried over from the previous render
}

TEST(Textfile, APluginNameLoadedTwiceIsOneSeriesShowingTheOneThatRuns)
{
    auto snap = sampleSnapshot();
    PluginStatus copy; // a second file carrying the name "mlx5", refused
    copy.name = "mlx5";
    copy.file = "/opt/nicd/plugins/nicd-plugin-mlx5.so";
    copy.state = PluginState::Failed;
    snap.plugins.insert(snap.plugins.begin(), copy);
    auto text = renderTextfile(snap);
    EXPECT_TRUE(has(text, "nicd_plugin_up{plugin=\"mlx5\"} 1"));
    EXPECT_FALSE(has(text, "nicd_plugin_up{plugin=\"mlx5\"} 0"));
    EXPECT_TRUE(has(text, "nicd_plugin_state{plugin=\"mlx5\",state=\"degraded\"} 1"));
    EXPECT_TRUE(has(text, "nicd_plugin_state{plugin=\"mlx5\",state=\"failed\"} 0"));
}

// The daemon streams the textfile in chunks; what lands must be exactly the whole text, cut only
// at line ends.
TEST(Textfile, StreamedInWholeLinesItIsTheSameText)
{
    auto snap = sampleSnapshot();
    auto& ds = snap.samples.front();
    std::vector<Sample> many;
    for (int i = 0; i < 3000; ++i)
        many.push_back({"hw_counters", 1, "", "many_counter_" + std::to_string(i),
                        static_cast<uint64_t>(i), SampleKind::Counter});
    addSamples(ds, many);
    std::string whole = renderTextfile(snap);
    ASSERT_GT(whole.size(), 2 * 64 * 1024U) << "big enough to be streamed in several chunks";
    std::string streamed;
    int chunks = 0;
    textfile::renderTextfileTo(snap, [&](std::string_view piece) {
        ++chunks;
        EXPECT_TRUE(!piece.empty() && piece.back() == '\n') << "chunk " << chunks;
        streamed.append(piece);
    });
    EXPECT_GE(chunks, 3);
    EXPECT_EQ(streamed, whole);
}

// The signal families are kept between renders while their inputs stay the same: each new
// reading, and a device renamed under the same PCI address, must still show at once.
TEST(Textfile, SignalFamiliesFollowEveryNewReading)
{
    auto snap = sampleSnapshot();
    snap.temperatures["mlx5_0"] = {{"asic", 55, 105, std::nullopt}};
    snap.reporters = {{"pci/0000:3b:00.0", "fw", true, "healthy", 0, 0}};
    auto first = renderTextfile(snap);
    EXPECT_TRUE(
        has(first, "nicd_device_temperature_celsius{device=\"mlx5_0\",sensor=\"asic\"} 55"));
    EXPECT_EQ(renderTextfile(snap), first);

    snap.temperatures["mlx5_0"][0].celsius = 71;
    auto hotter = renderTextfile(snap);
    EXPECT_TRUE(
        has(hotter, "nicd_device_temperature_celsius{device=\"mlx5_0\",sensor=\"asic\"} 71"));
    EXPECT_FALSE(
        has(hotter, "nicd_device_temperature_celsius{device=\"mlx5_0\",sensor=\"asic\"} 55"));

    snap.inventory.devices[0].ibdev = "mlx5_9";
    EXPECT_TRUE(has(renderTextfile(snap), "nicd_devlink_reporter_healthy{device=\"mlx5_9\","
                                          "handle=\"pci/0000:3b:00.0\",reporter=\"fw\"} 1"));

    snap.health.pre_fec_ber["ens1f0np0"] = {1e-6, 2.4e-4};
    snap.uplinks = {{"mlx5_9", 1, "ens1f0np0", "Ethernet", 400, 4, true}};
    EXPECT_TRUE(has(renderTextfile(snap), "nicd_fec_pre_ber_ratio{device=\"mlx5_9\",port=\"1\","
                                          "netdev=\"ens1f0np0\"} 1e-06"));
    // Each input on its own.
    ModuleDom m;
    m.has_dom = true;
    m.standard = ModuleStandard::Cmis;
    m.temperature_celsius = 40;
    snap.modules["ens1f0np0"] = m;
    EXPECT_TRUE(has(renderTextfile(snap), "nicd_module_temperature_celsius{device=\"mlx5_9\","
                                          "port=\"1\",netdev=\"ens1f0np0\"} 40"));
    snap.modules["ens1f0np0"].temperature_celsius = 41;
    EXPECT_TRUE(has(renderTextfile(snap), "nicd_module_temperature_celsius{device=\"mlx5_9\","
                                          "port=\"1\",netdev=\"ens1f0np0\"} 41"));
    FecStats f;
    f.active = "RS";
    f.uncorrectable_blocks = FecCounter{7, {}};
    snap.fec["ens1f0np0"] = f;
    EXPECT_TRUE(has(renderTextfile(snap), "nicd_fec_uncorrectable_blocks_total{device=\"mlx5_9\","
                                          "port=\"1\",netdev=\"ens1f0np0\"} 7"));
    snap.pcie["mlx5_9"] = PcieLink{16, 8, 32, 16, {}, {}, {}};
    EXPECT_TRUE(has(renderTextfile(snap),
                    "nicd_pcie_link_width_lanes{device=\"mlx5_9\",which=\"current\"} 8"));
    snap.uplinks[0].port = 2;
    EXPECT_TRUE(has(renderTextfile(snap), "nicd_fec_info{device=\"mlx5_9\",port=\"2\","
                                          "netdev=\"ens1f0np0\",mode=\"RS\"} 1"));
    snap.reporters[0].healthy = false;
    EXPECT_TRUE(has(renderTextfile(snap), "nicd_devlink_reporter_healthy{device=\"mlx5_9\","
                                          "handle=\"pci/0000:3b:00.0\",reporter=\"fw\"} 0"));
    // And every family still once, streamed or not.
    std::string streamed;
    textfile::renderTextfileTo(snap, [&](std::string_view piece) { streamed.append(piece); });
    EXPECT_EQ(streamed, renderTextfile(snap));
}

// By default (Counters= is not all) a family carries what says something about the port: the
// state that holds, the health reporters that are not quiet, the worst lane, a PCIe maximum the
// link fell short of; thresholds and settings only with Counters=all, which brings every series
// back.
TEST(Textfile, ByDefaultEachFamilyCarriesWhatSaysSomethingAndAllBringsBackTheRest)
{
    auto snap = sampleSnapshot();
    snap.uplinks = {{"mlx5_0", 1, "ens1f0np0", "Ethernet", 400, 4, true}};
    ModuleDom m;
    m.has_dom = true;
    m.standard = ModuleStandard::Cmis;
    m.supply_volts = 3.3;
    m.rx_power = {0.003162, 0.0001, {}, {}};
    m.tx_bias = {0.1, 0.01, {}, {}};
    m.tx_power = {0.004, 0.0002, {}, {}};
    // Lane 3 receives the least light, lane 2 draws the most bias, lane 4 sends the most light
    // (nearest the high alarm).
    m.lanes = {{0.05, 0.0015, 0.0013, false, false},
               {0.09, 0.0014, 0.0012, false, false},
               {0.05, 0.0015, 0.0002, false, false},
               {0.05, 0.0037, 0.0013, false, false}};
    snap.modules["ens1f0np0"] = m;
    snap.reporters = {{"pci/0000:3b:00.0", "fw", true, "healthy", 0, 0},
                      {"pci/0000:3b:00.0", "tx", true, "healthy", 2, 2},
                      {"pci/0000:3b:00.0", "fw_fatal", false, "error", 1, 0}};
    snap.pcie["mlx5_0"] = PcieLink{32, 8, 32, 16, 32, 16, {}};
    snap.temperatures["mlx5_0"] = {{"asic", 55, 105, 58}};
    snap.health.congestion[{"mlx5_0", 1}] = {"pfc_only", 30, 0.2, 0, 0, 0, 0};
    snap.qos.changes_total[{"mlx5_0", 1, "pfc"}] = 1;
    Config config;
    auto text = renderTextfile(snap, textfile::CounterBudget(config));
    auto count = [](const std::string& t, const std::string& family) {
        size_t n = 0;
        for (size_t at = t.find("\n" + family + "{"); at != std::string::npos;
             at = t.find("\n" + family + "{", at + 1))
            ++n;
        return n;
    };
    const std::string lane = "{device=\"mlx5_0\",port=\"1\",netdev=\"ens1f0np0\",lane=";
    EXPECT_TRUE(has(text, "nicd_module_rx_power_watts" + lane + "\"3\"} 0.0002")) << text;
    EXPECT_TRUE(has(text, "nicd_module_tx_bias_amperes" + lane + "\"2\"} 0.09")) << text;
    EXPECT_TRUE(has(text, "nicd_module_tx_power_watts" + lane + "\"4\"} 0.0037")) << text;
    for (const char* f : {"nicd_module_rx_power_watts", "nicd_module_tx_bias_amperes",
                          "nicd_module_tx_power_watts"})
        EXPECT_EQ(count(text, f), 1U) << f;
    EXPECT_EQ(count(text, "nicd_port_congestion_state"), 1U);
    EXPECT_TRUE(has(text, "nicd_port_congestion_state{device=\"mlx5_0\",port=\"1\","
                          "state=\"pfc_only\"} 1"));
    // The quiet reporter is left out; the one that recovered and the one in error are not.
    EXPECT_EQ(count(text, "nicd_devlink_reporter_healthy"), 2U);
    EXPECT_EQ(count(text, "nicd_devlink_reporter_errors_total"), 2U);
    EXPECT_FALSE(text.find("reporter=\"fw\"}") != std::string::npos) << text;
    // The link trained at full speed but half width: the width's maximum is said, not the speed's.
    EXPECT_EQ(count(text, "nicd_pcie_link_speed_transfers_per_second"), 1U);
    EXPECT_EQ(count(text, "nicd_pcie_link_width_lanes"), 3U);
    EXPECT_TRUE(has(text, "nicd_pcie_link_width_lanes{device=\"mlx5_0\",which=\"max\"} 16"));
    // An inactive port's physical state is said; one plugin state a plugin.
    EXPECT_TRUE(has(text, "nicd_port_phys_state{device=\"mlx5_0\",port=\"1\"} 3"));
    EXPECT_EQ(count(text, "nicd_plugin_state"), 2U);
    for (const char* f :
         {"nicd_module_rx_power_threshold_watts", "nicd_module_supply_volts",
          "nicd_device_temperature_crit_celsius", "nicd_device_temperature_highest_celsius",
          "nicd_qos_changes_total", "nicd_port_congestion_window_seconds", "nicd_dropped_files"}) {
        EXPECT_EQ(count(text, f), 0U) << f;
        EXPECT_NE(text.find("# TYPE " + std::string(f) + " "), std::string::npos) << f;
    }

    auto all = renderTextfile(snap);
    for (const char* f : {"nicd_module_rx_power_watts", "nicd_module_tx_bias_amperes",
                          "nicd_module_tx_power_watts"})
        EXPECT_EQ(count(all, f), 4U) << f;
    EXPECT_EQ(count(all, "nicd_port_congestion_state"), 6U);
    EXPECT_EQ(count(all, "nicd_devlink_reporter_recovers_total"), 3U);
    EXPECT_EQ(count(all, "nicd_pcie_link_speed_transfers_per_second"), 3U);
    EXPECT_EQ(count(all, "nicd_plugin_state"), 8U);
    for (const char* f :
         {"nicd_module_rx_power_threshold_watts", "nicd_module_tx_bias_threshold_amperes"})
        EXPECT_EQ(count(all, f), 2U) << f;
    for (const char* f : {"nicd_module_supply_volts", "nicd_device_temperature_crit_celsius",
                          "nicd_device_temperature_highest_celsius", "nicd_qos_changes_total",
                          "nicd_port_congestion_window_seconds"})
        EXPECT_EQ(count(all, f), 1U) << f;
    EXPECT_EQ(count(all, "nicd_dropped_files"), 1U);
}
