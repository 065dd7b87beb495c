// The textfile: the exposition format a node_exporter reads, the values an operator checks, and
// a replacement that never leaves a half-written or temporary file behind.
#include "support/temp_dir.hpp"
#include "textfile/atomic_file.hpp"
#include "textfile/metric_writer.hpp"
#include "textfile/render.hpp"

#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

using namespace nicd;
namespace fs = std::filesystem;

namespace {

Snapshot sampleSnapshot()
{
    Snapshot s;
    Device d;
    d.ibdev = "mlx5_0";
    d.pci_address = "0000:3b:00.0";
    d.driver = "mlx5_core";
    d.fw_ver = "28.41.1000";
    d.plugin = "mlx5";
    d.numa_node = 1;
    Port p;
    p.num = 1;
    p.state = 1;
    p.state_name = "DOWN";
    p.phys_state = 3;
    p.link_layer = "Ethernet";
    p.rate = "400 Gb/sec (4X NDR)";
    p.rate_gbps = 400;
    p.netdevs = {"ens1f0np0"};
    d.ports.push_back(p);
    s.inventory.devices.push_back(d);
    s.netdevs["ens1f0np0"] = {"ens1f0np0", "down", false, 7};
    DeviceSamples ds;
    ds.ibdev = "mlx5_0";
    ds.samples.push_back({"counters", 1, "", "symbol_error", 500, SampleKind::Counter});
    ds.samples.push_back({"counters", 1, "", "port_rcv_data_bytes", 4000, SampleKind::Counter});
    ds.samples.push_back(
        {"hw_counters", 1, "", "out_of_buffer", 18446744073709551615ULL, SampleKind::Counter});
    ds.samples.push_back({"hw_counters", 1, "", "lifespan", 12, SampleKind::Gauge});
    ds.samples.push_back({"ethtool", 1, "ens1f0np0", "rx_prio3_pause", 9, SampleKind::Counter});
    s.samples.push_back(ds);
    PluginStatus ps;
    ps.name = "mlx5";
    ps.version = "0.1.0";
    ps.abi_major = 1;
    ps.state = PluginState::Degraded;
    ps.devices = 1;
    s.plugins.push_back(ps);
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

TEST(MetricWriter, OneHelpAndTypePerFamilyAndEscaping)
{
    MetricWriter w;
    w.family("nicd_x", MetricType::Gauge, "Help with \\ and\nnewline.");
    w.sample({{"a", "q\"uote"}, {"b", "back\\slash\nnl"}}, 1.5);
    w.sample({{"a", "z"}}, uint64_t{18446744073709551615ULL});
    EXPECT_EQ(w.text(), "# HELP nicd_x Help with \\\\ and\\nnewline.\n# TYPE nicd_x gauge\n"
                        "nicd_x{a=\"q\\\"uote\",b=\"back\\\\slash\\nnl\"} 1.5\n"
                        "nicd_x{a=\"z\"} 18446744073709551615\n");
    EXPECT_THROW(w.family("nicd_x", MetricType::Gauge, "again"), std::logic_error);
    EXPECT_THROW(w.family("node_x", MetricType::Gauge, "no prefix"), std::logic_error);
}

TEST(MetricWriter, DoublesRoundTripAndSpecialValues)
{
    EXPECT_EQ(MetricWriter::formatDouble(0.1), "0.1");
    EXPECT_EQ(MetricWriter::formatDouble(1700000000.25), "1700000000.25");
    EXPECT_EQ(MetricWriter::formatDouble(5e10), "50000000000");
    EXPECT_EQ(MetricWriter::formatDouble(std::numeric_limits<double>::quiet_NaN()), "NaN");
    EXPECT_EQ(MetricWriter::formatDouble(-std::numeric_limits<double>::infinity()), "-Inf");
}

TEST(Textfile, RendersWhatAnOperatorLooksFor)
{
    auto text = renderTextfile(sampleSnapshot());
    EXPECT_TRUE(has(text, "nicd_up 1"));
    EXPECT_TRUE(has(text, "nicd_last_cycle_timestamp_seconds 1700000000.25"));
    EXPECT_TRUE(has(text, "nicd_cycles_total 3"));
    EXPECT_TRUE(has(text, "nicd_read_errors_total 2"));
    EXPECT_TRUE(has(text, "nicd_port_state{device=\"mlx5_0\",port=\"1\"} 1"));
    EXPECT_TRUE(has(text, "nicd_port_phys_state{device=\"mlx5_0\",port=\"1\"} 3"));
    EXPECT_TRUE(
        has(text, "nicd_port_rate_bytes_per_second{device=\"mlx5_0\",port=\"1\"} 50000000000"));
    EXPECT_TRUE(has(text, "nicd_netdev_up{device=\"mlx5_0\",port=\"1\",netdev=\"ens1f0np0\"} 0"));
    EXPECT_TRUE(
        has(text, "nicd_netdev_carrier{device=\"mlx5_0\",port=\"1\",netdev=\"ens1f0np0\"} 0"));
    EXPECT_TRUE(has(
        text, "nicd_ib_port_pma_total{device=\"mlx5_0\",port=\"1\",counter=\"symbol_error\"} 500"));
    EXPECT_TRUE(has(text, "nicd_ib_port_receive_bytes_total{device=\"mlx5_0\",port=\"1\"} 4000"));
    EXPECT_TRUE(
        has(text, "nicd_port_hw_stat_total{device=\"mlx5_0\",port=\"1\",counter=\"out_of_buffer\"} "
                  "18446744073709551615"));
    EXPECT_TRUE(
        has(text, "nicd_port_hw_value{device=\"mlx5_0\",port=\"1\",counter=\"lifespan\"} 12"));
    EXPECT_TRUE(has(text,
                    "nicd_netdev_ethtool_total{device=\"mlx5_0\",port=\"1\",netdev=\"ens1f0np0\","
                    "stat=\"rx_prio3_pause\"} 9"));
    EXPECT_TRUE(has(text, "nicd_plugin_up{plugin=\"mlx5\"} 1"));
    EXPECT_TRUE(has(text, "nicd_plugin_state{plugin=\"mlx5\",state=\"degraded\"} 1"));
    EXPECT_TRUE(has(text, "nicd_plugin_state{plugin=\"mlx5\",state=\"running\"} 0"));
    EXPECT_TRUE(
        has(text,
            "nicd_device_info{device=\"mlx5_0\",pci_address=\"0000:3b:00.0\",driver=\"mlx5_core\","
            "fw_version=\"28.41.1000\",board_id=\"\",hca_type=\"\",role=\"pf\",plugin=\"mlx5\","
            "numa_node=\"1\"} 1"));
    // Every line is a comment or a nicd_ sample; no timestamps (two fields per sample line).
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        if (line.starts_with("#"))
            continue;
        EXPECT_TRUE(line.starts_with("nicd_")) << line;
        auto close = line.rfind('}');
        auto rest = line.substr(close == std::string::npos ? line.find(' ') : close + 1);
        EXPECT_EQ(std::count(rest.begin(), rest.end(), ' '), 1) << "timestamp or junk in: " << line;
    }
}

TEST(AtomicFile, ReplacesContentAndLeavesNoTemporaryFile)
{
    auto dir = test::makeTempDir("atomic");
    auto f = dir / "nicd.prom";
    ASSERT_FALSE(writeFileAtomically(f, "one\n"));
    ASSERT_FALSE(writeFileAtomically(f, "two\n"));
    std::ifstream in(f);
    std::string content((std::istreambuf_iterator<char>(in)), {});
    EXPECT_EQ(content, "two\n");
    size_t files = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir))
        ++files;
    EXPECT_EQ(files, 1U);
    EXPECT_EQ(fs::status(f).permissions() & fs::perms::all,
              fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read |
                  fs::perms::others_read);
    fs::remove_all(dir);
}

TEST(AtomicFile, MissingDirectoryIsAClearError)
{
    auto err = writeFileAtomically("/nonexistent-dir/nicd.prom", "x");
    ASSERT_TRUE(err);
    EXPECT_NE(err->find("/nonexistent-dir/"), std::string::npos) << *err;
    EXPECT_NE(err->find("No such file or directory"), std::string::npos) << *err;
}
