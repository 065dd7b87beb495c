// The textfile as Prometheus tools meet it: a realistic node's file, written the way nicd writes
// it, passes `promtool check metrics` without a lint warning, and node_exporter's textfile
// collector serves every nicd series with node_textfile_scrape_error 0, also while the file is
// being replaced.
#include "paths/atomic_file.hpp"
#include "support/mlx5_samples.hpp"
#include "support/process.hpp"
#include "support/render_textfile.hpp"
#include "support/temp_dir.hpp"

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <limits>
#include <map>
#include <memory>
#include <sstream>
#include <thread>

#include <gtest/gtest.h>

using namespace nicd;
using namespace std::chrono_literals;
using nicd::test::renderTextfile;
namespace fs = std::filesystem;

namespace {

const char* const kPmaCounters[] = {"symbol_error",
                                    "link_error_recovery",
                                    "link_downed",
                                    "port_rcv_errors",
                                    "port_rcv_remote_physical_errors",
                                    "port_rcv_switch_relay_errors",
                                    "port_xmit_discards",
                                    "port_xmit_constraint_errors",
                                    "port_rcv_constraint_errors",
                                    "local_link_integrity_errors",
                                    "excessive_buffer_overrun_errors",
                                    "VL15_dropped",
                                    "port_xmit_wait",
                                    "port_xmit_data_bytes",
                                    "port_rcv_data_bytes",
                                    "port_xmit_packets",
                                    "port_rcv_packets",
                                    "unicast_xmit_packets",
                                    "unicast_rcv_packets",
                                    "multicast_xmit_packets",
                                    "multicast_rcv_packets"};
const char* const kHwCounters[] = {"rx_write_requests",
                                   "rx_read_requests",
                                   "rx_atomic_requests",
                                   "out_of_buffer",
                                   "out_of_sequence",
                                   "duplicate_request",
                                   "rnr_nak_retry_err",
                                   "packet_seq_err",
                                   "implied_nak_seq_err",
                                   "local_ack_timeout_err",
                                   "np_cnp_sent",
                                   "rp_cnp_handled",
                                   "np_ecn_marked_roce_packets",
                                   "roce_adp_retrans",
                                   "roce_slow_restart",
                                   "rx_icrc_encapsulated"};
const char* const kEthtoolStats[] = {
    "rx_packets_phy",   "tx_packets_phy", "rx_discards_phy",  "tx_discards_phy",
    "rx_out_of_buffer", "rx_prio3_pause", "tx_prio3_pause",   "rx_prio3_pause_duration",
    "rx_prio0_bytes",   "rx_prio3_bytes", "rx_crc_errors_phy"};

Port makePort(uint32_t num, const std::string& layer, int state, int phys,
              std::vector<std::string> netdevs)
{
    Port p;
    p.num = num;
    p.state = state;
    p.state_name = state == 4 ? "ACTIVE" : "DOWN";
    p.phys_state = phys;
    p.phys_state_name = phys == 5 ? "LinkUp" : "Disabled";
    p.link_layer = layer;
    p.rate = layer == "InfiniBand" ? "400 Gb/sec (4X NDR)" : "200 Gb/sec (2X NDR)";
    p.rate_gbps = layer == "InfiniBand" ? 400 : 200;
    p.netdevs = std::move(netdevs);
    return p;
}

Device makeDevice(const std::string& ibdev, const std::string& pci, DeviceFunction role, Port port)
{
    Device d;
    d.ibdev = ibdev;
    d.pci_address = pci;
    d.driver = "mlx5_core";
    d.fw_ver = "28.39.1002";
    d.board_id = "MT_0000000838";
    d.hca_type = "MT4129";
    d.numa_node = 0;
    d.function = role;
    d.plugin = "mlx5";
    d.ports.push_back(std::move(port));
    return d;
}

// A node like the simulator's: RoCE PFs (one down), an InfiniBand HCA, a RoCE LAG over a bonded
// pair, a VF; every counter source; a loaded plugin and a broken one; active health conditions;
// and identity strings with the bytes that break careless writers.
Snapshot realisticNode(uint64_t cycle)
{
    Snapshot s;
    auto& devs = s.inventory.devices;
    devs.push_back(makeDevice("mlx5_0", "0000:0c:00.0", DeviceFunction::Physical,
                              makePort(1, "Ethernet", 4, 5, {"ens1np0"})));
    devs.push_back(makeDevice("mlx5_1", "0000:2a:00.0", DeviceFunction::Physical,
                              makePort(1, "Ethernet", 1, 3, {"ens2np0"})));
    devs.push_back(makeDevice("mlx5_2", "0000:41:00.0", DeviceFunction::Physical,
                              makePort(1, "InfiniBand", 4, 5, {"ibp65s0"})));
    devs.push_back(makeDevice("mlx5_3", "0000:5d:00.0", DeviceFunction::BondMember,
                              makePort(1, "Ethernet", 4, 5, {"ens4f0np0"})));
    devs.push_back(makeDevice("mlx5_4", "0000:5d:00.1", DeviceFunction::BondMember,
                              makePort(1, "Ethernet", 4, 5, {"ens4f1np1"})));
    devs.push_back(makeDevice("mlx5_bond_0", "0000:5d:00.0", DeviceFunction::Lag,
                              makePort(1, "Ethernet", 4, 5, {"bond0"})));
    devs.push_back(makeDevice("mlx5_5", "0000:0c:00.2", DeviceFunction::VirtualFunction,
                              makePort(1, "Ethernet", 4, 5, {"ens1f0v0"})));
    devs[1].board_id = "MT_\"quoted\"\\path";
    devs[1].fw_ver = "28.39.1002 (MT_\xff"
                     "0000)"; // a stray byte from firmware
    devs[2].hca_type = "MT4129\nsecond line";
    devs[6].numa_node.reset();
    devs[6].plugin.clear();
    devs[6].ports[0].state.reset(); // unreadable

    for (const auto& d : devs)
        for (const auto& p : d.ports)
            for (const auto& nd : p.netdevs)
                s.netdevs[nd] = {nd, p.state == 1 ? "down" : "up", p.state != 1, 10};

    for (const auto& d : devs) {
        DeviceSamples ds;
        ds.ibdev = d.ibdev;
        const auto& p = d.ports.front();
        uint64_t base = cycle * 1000;
        std::vector<Sample> samples;
        for (const char* name : kPmaCounters)
            samples.push_back({"counters", 1, "", name, base + 1, SampleKind::Counter});
        for (const char* name : kHwCounters)
            samples.push_back({"hw_counters", 1, "", name, base + 2, SampleKind::Counter});
        samples.push_back({"hw_counters", 1, "", "lifespan", 12, SampleKind::Gauge});
        samples.push_back({"hw_counters", 0, "", "cq_overrun", base, SampleKind::Counter});
        if (p.link_layer == "Ethernet")
            for (const char* name : kEthtoolStats)
                samples.push_back(
                    {"ethtool", 1, p.netdevs.front(), name, base + 3, SampleKind::Counter});
        samples.push_back(
            {"ethtool", 1, p.netdevs.front(), "module_temperature", 41, SampleKind::Gauge});
        samples.push_back({"qos", 1, p.netdevs.front(), "pfc_enabled_mask", 8, SampleKind::Gauge});
        samples.push_back(
            {"qos", 1, p.netdevs.front(), "dscp_rewrites", base, SampleKind::Counter});
        samples.back().value = std::numeric_limits<uint64_t>::max(); // saturated
        test::addMlx5Samples(ds, samples);
        s.samples.push_back(std::move(ds));
    }

    PluginStatus mlx5;
    mlx5.name = "mlx5";
    mlx5.file = "/usr/lib/x86_64-linux-gnu/nicd/plugins/nicd-plugin-mlx5.so";
    mlx5.version = "0.1.0";
    mlx5.abi_major = 1;
    mlx5.state = PluginState::Running;
    mlx5.devices = 6;
    s.plugins.push_back(mlx5);
    PluginStatus broken;
    broken.name = "nicd-plugin-acme.so";
    broken.state = PluginState::Failed;
    broken.last_error = "ABI major 2, nicd speaks 1";
    s.plugins.push_back(broken);

    auto& h = s.health;
    for (const auto& d : devs) {
        h.devices[d.ibdev] = d.ibdev == "mlx5_1" ? Health::Fatal : Health::Healthy;
        h.ports[{d.ibdev, 1}] = d.ibdev == "mlx5_1" ? Health::Fatal : Health::Healthy;
    }
    Condition down;
    down.code = "port_down";
    down.severity = ConditionSeverity::Fatal;
    down.device = "mlx5_1";
    down.port = 1;
    down.message = "port 1 is DOWN (Disabled)";
    down.first_seen = 1700000000;
    h.conditions.push_back(down);
    Condition kernel = down;
    kernel.code = "kernel.mlx5.cmd_timeout";
    kernel.port = 0;
    h.conditions.push_back(kernel);
    h.kernel_errors[{"mlx5_1", "mlx5.cmd_timeout"}] = 2;
    h.kernel_errors_unmapped = 1;
    h.events_total["raised"] = 2;

    s.cycle = cycle;
    s.timestamp_seconds = 1700000000.125 + static_cast<double>(cycle);
    s.duration_seconds = 0.0123;
    s.read_errors_total = 1;
    return s;
}

size_t countNicdSamples(const std::string& text)
{
    size_t n = 0;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line))
        n += line.starts_with("nicd_") ? 1 : 0;
    return n;
}

// A loopback port nobody listens on right now.
int freePort()
{
    int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&addr), len) != 0 ||
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
        if (fd >= 0)
            ::close(fd);
        return -1;
    }
    ::close(fd);
    return ntohs(addr.sin_port);
}

class TextfileExposition : public ::testing::Test {
protected:
    void SetUp() override
    {
        dir_ = test::makeTempDir("textfile");
        fs::create_directories(dir_ / "textfile");
        file_ = dir_ / "textfile" / "nicd.prom";
    }
    void TearDown() override { fs::remove_all(dir_); }

    void write(const Snapshot& s)
    {
        auto written = paths::writeFileAtomically(file_, renderTextfile(s));
        ASSERT_TRUE(written) << written.error().message;
    }

    // Starts node_exporter with only the textfile collector on a free loopback port.
    void startNodeExporter()
    {
        for (int attempt = 0; attempt < 3 && !exporter_; ++attempt) {
            port_ = freePort();
            ASSERT_GT(port_, 0);
            auto ne = std::make_unique<test::Process>(
                std::vector<std::string>{"prometheus-node-exporter",
                                         "--web.listen-address=127.0.0.1:" + std::to_string(port_),
                                         "--collector.disable-defaults", "--collector.textfile",
                                         "--collector.textfile.directory=" +
                                             file_.parent_path().string()},
                std::map<std::string, std::string>{}, dir_ / "node_exporter.log");
            std::string body;
            if (test::waitFor([&] { return scrape(body) || !ne->running(); }, 10s) && ne->running())
                exporter_ = std::move(ne);
        }
        ASSERT_TRUE(exporter_) << test::readFile(dir_ / "node_exporter.log");
    }

    bool scrape(std::string& body)
    {
        return test::run({"curl", "-fsS", "--max-time", "5",
                          "http://127.0.0.1:" + std::to_string(port_) + "/metrics"},
                         body, 10s) == 0;
    }

    fs::path dir_;
    fs::path file_;
    int port_ = -1;
    std::unique_ptr<test::Process> exporter_;
};

} // namespace

TEST_F(TextfileExposition, PromtoolAcceptsItWithoutLintWarnings)
{
    write(realisticNode(1));
    std::string out;
    int rc = test::run({"sh", "-c", "promtool check metrics < '" + file_.string() + "'"}, out, 60s);
    EXPECT_EQ(rc, 0) << out;
    EXPECT_EQ(out, "") << "promtool lint: " << out;
}

TEST_F(TextfileExposition, PromtoolWouldCatchABrokenFile)
{
    // The check above can fail: a counter without _total and a timestamp are reported.
    std::string bad = "# HELP nicd_errors x\n# TYPE nicd_errors counter\nnicd_errors 1 1700000\n";
    ASSERT_TRUE(paths::writeFileAtomically(file_, bad));
    std::string out;
    test::run({"sh", "-c", "promtool check metrics < '" + file_.string() + "'"}, out, 60s);
    EXPECT_NE(out, "");
}

TEST_F(TextfileExposition, NodeExporterServesEveryNicdSeries)
{
    auto snap = realisticNode(1);
    write(snap);
    auto text = test::readFile(file_);
    startNodeExporter();
    std::string body;
    ASSERT_TRUE(scrape(body)) << test::readFile(dir_ / "node_exporter.log");
    EXPECT_NE(body.find("\nnode_textfile_scrape_error 0\n"), std::string::npos)
        << test::readFile(dir_ / "node_exporter.log");
    EXPECT_NE(body.find("node_textfile_mtime_seconds{file=\"" + file_.string() + "\"}"),
              std::string::npos);
    // Every series nicd wrote is served: none dropped as a duplicate or for a bad label value.
    EXPECT_EQ(countNicdSamples(body), countNicdSamples(text));
    EXPECT_GT(countNicdSamples(text), std::size(kPmaCounters) * snap.inventory.devices.size());
    for (const char* series :
         {"\nnicd_up 1\n", "\nnicd_port_state{device=\"mlx5_1\",port=\"1\"} 1\n",
          "\nnicd_netdev_up{device=\"mlx5_1\",netdev=\"ens2np0\",port=\"1\"} 0\n",
          "\nnicd_device_health{device=\"mlx5_1\"} 2\n",
          "\nnicd_ib_port_pma_total{counter=\"symbol_error\",device=\"mlx5_2\",port=\"1\"} "
          "1001\n",
          "board_id=\"MT_\\\"quoted\\\"\\\\path\"", "hca_type=\"MT4129\\nsecond line\"",
          "\nnicd_plugin_up{plugin=\"nicd-plugin-acme.so\"} 0\n"})
        EXPECT_NE(body.find(series), std::string::npos) << series;
    EXPECT_EQ(body.find("\nnode_textfile_scrape_error 1\n"), std::string::npos);
}

TEST_F(TextfileExposition, NodeExporterNeverSeesAHalfWrittenFile)
{
    write(realisticNode(1));
    startNodeExporter();
    std::atomic<bool> stop{false};
    std::atomic<int> writes{0};
    auto first = renderTextfile(realisticNode(1));
    auto second = renderTextfile(realisticNode(2));
    std::thread writer([&] {
        while (!stop) {
            auto written = paths::writeFileAtomically(file_, writes % 2 ? first : second);
            if (!written)
                ADD_FAILURE() << written.error().message;
            ++writes;
        }
    });
    int scrapes = 0;
    for (auto until = std::chrono::steady_clock::now() + 3s;
         std::chrono::steady_clock::now() < until;) {
        std::string body;
        if (!scrape(body)) {
            ADD_FAILURE() << "scrape failed: " << body;
            break;
        }
        ++scrapes;
        EXPECT_NE(body.find("\nnode_textfile_scrape_error 0\n"), std::string::npos)
            << test::readFile(dir_ / "node_exporter.log");
        EXPECT_EQ(countNicdSamples(body), countNicdSamples(first));
    }
    stop = true;
    writer.join();
    EXPECT_GT(writes.load(), scrapes) << "the file was not replaced during the scrapes";
    size_t files = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(file_.parent_path()))
        ++files;
    EXPECT_EQ(files, 1U) << "temporary files left behind";
}
