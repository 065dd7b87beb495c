// The simulated node's tree resolves like the kernel's: /sys/class and /sys/bus links into
// /sys/devices, PCI functions bound to mlx5_core, a VF with its PF, a bond with its slaves, the
// counter names of a real H100 node, and the files around them.
#include "sim.hpp"
#include "support/sim_tree.hpp"

#include <regex>
#include <set>

#include <gtest/gtest.h>

namespace fs = std::filesystem;
using namespace nicd;
using test::readFile;

namespace {

class SimLayoutTest : public test::SimDirTest {
protected:
    void SetUp() override
    {
        SimDirTest::SetUp();
        sim::create(dir_, {});
    }
    fs::path ib(const std::string& dev) const { return dir_ / "sys/class/infiniband" / dev; }
    fs::path net(const std::string& nd) const { return dir_ / "sys/class/net" / nd; }
    fs::path devices() const { return fs::canonical(dir_ / "sys/devices"); }
};

bool under(const fs::path& p, const fs::path& dir)
{
    return p.string().starts_with(dir.string() + "/");
}

} // namespace

TEST_F(SimLayoutTest, ClassLinksAreRelativeAndResolveIntoSysDevices)
{
    auto names = test::namesIn(dir_ / "sys/class/infiniband");
    EXPECT_EQ(names, (std::set<std::string>{"mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3", "mlx5_4",
                                            "mlx5_5", "mlx5_6", "mlx5_bond_0"}));
    for (const auto& n : names) {
        SCOPED_TRACE(n);
        EXPECT_TRUE(fs::read_symlink(ib(n)).string().starts_with("../../devices/pci0000:"));
        auto real = fs::canonical(ib(n));
        EXPECT_TRUE(under(real, devices()));
        EXPECT_EQ(real.parent_path().filename(), "infiniband");
        // device -> the PCI function, bound to mlx5_core, listed under /sys/bus/pci.
        auto pci = fs::canonical(ib(n) / "device");
        EXPECT_EQ(pci, real.parent_path().parent_path());
        EXPECT_EQ(fs::canonical(pci / "driver").filename(), "mlx5_core");
        EXPECT_EQ(fs::canonical(dir_ / "sys/bus/pci/devices" / pci.filename()), pci);
        EXPECT_EQ(fs::canonical(dir_ / "sys/bus/pci/drivers/mlx5_core" / pci.filename()), pci);
        EXPECT_EQ(readFile(pci / "vendor"), "0x15b3\n");
        EXPECT_TRUE(std::regex_match(pci.filename().string(),
                                     std::regex("[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\\.[0-7]")));
        EXPECT_TRUE(std::regex_match(pci.parent_path().parent_path().filename().string(),
                                     std::regex("pci0000:[0-9a-f]{2}")));
    }
    for (const auto& n : test::namesIn(dir_ / "sys/class/net")) {
        SCOPED_TRACE(n);
        EXPECT_TRUE(fs::read_symlink(net(n)).string().starts_with("../../devices/"));
        EXPECT_TRUE(under(fs::canonical(net(n)), devices()));
    }
    EXPECT_EQ(fs::canonical(ib("mlx5_0") / "device"),
              fs::canonical(net("ens1f0np0") / "device"));           // same PCI function
    EXPECT_EQ(readFile(ib("mlx5_0") / "device/device"), "0x1021\n"); // ConnectX-7
    EXPECT_EQ(readFile(ib("mlx5_0") / "hca_type"), "MT4129\n");
    EXPECT_EQ(readFile(ib("mlx5_0") / "node_type"), "1: CA\n");
    EXPECT_TRUE(fs::is_directory(dir_ / "sys/bus/pci/drivers/mlx5_core"));
}

TEST_F(SimLayoutTest, PortsOfEachKind)
{
    auto port = [&](const std::string& dev, const std::string& f) {
        return readFile(ib(dev) / "ports/1" / f);
    };
    for (const char* d : {"mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3", "mlx5_bond_0", "mlx5_5"}) {
        SCOPED_TRACE(d);
        EXPECT_EQ(port(d, "state"), "4: ACTIVE\n");
        EXPECT_EQ(port(d, "phys_state"), "5: LinkUp\n");
        EXPECT_EQ(port(d, "link_layer"), "Ethernet\n");
        EXPECT_EQ(port(d, "rate"), "400 Gb/sec (4X NDR)\n");
    }
    EXPECT_EQ(port("mlx5_0", "gid_attrs/ndevs/0"), "ens1f0np0\n");
    EXPECT_EQ(port("mlx5_4", "link_layer"), "InfiniBand\n");
    EXPECT_EQ(port("mlx5_4", "state"), "4: ACTIVE\n");
    EXPECT_FALSE(fs::exists(ib("mlx5_4") / "ports/1/gid_attrs/ndevs"));
    EXPECT_EQ(fs::canonical(net("ib0") / "device"), fs::canonical(ib("mlx5_4") / "device"));
    EXPECT_EQ(port("mlx5_6", "state"), "1: DOWN\n");
    EXPECT_EQ(port("mlx5_6", "phys_state"), "3: Disabled\n");
    EXPECT_EQ(readFile(net("ens6f0np0") / "operstate"), "down\n");
    EXPECT_EQ(readFile(net("ens6f0np0") / "carrier"), "0\n");
    EXPECT_EQ(readFile(net("ens1f0np0") / "operstate"), "up\n");
    EXPECT_EQ(readFile(net("ens1f0np0") / "speed"), "400000\n");
}

TEST_F(SimLayoutTest, VirtualFunctionPointsAtItsPhysicalFunction)
{
    auto pf = fs::canonical(ib("mlx5_0") / "device");
    auto vf = fs::canonical(ib("mlx5_5") / "device");
    EXPECT_EQ(fs::canonical(vf / "physfn"), pf);
    EXPECT_EQ(fs::canonical(pf / "virtfn0"), vf);
    EXPECT_FALSE(fs::exists(pf / "physfn"));
    EXPECT_EQ(readFile(vf / "device"), "0x101e\n");
    EXPECT_EQ(readFile(pf / "sriov_numvfs"), "1\n");
    EXPECT_EQ(fs::canonical(net("ens1f0v0") / "device"), vf);
}

TEST_F(SimLayoutTest, RoceLagOnABondOfTwoFunctions)
{
    EXPECT_EQ(readFile(net("bond0") / "bonding/slaves"), "ens5f0np0 ens5f1np1\n");
    EXPECT_TRUE(under(fs::canonical(net("bond0")), devices() / "virtual/net"));
    for (const char* slave : {"ens5f0np0", "ens5f1np1"}) {
        SCOPED_TRACE(slave);
        EXPECT_EQ(fs::canonical(net(slave) / "master"), fs::canonical(net("bond0")));
        EXPECT_EQ(fs::canonical(net("bond0") / (std::string("lower_") + slave)),
                  fs::canonical(net(slave)));
        EXPECT_EQ(fs::canonical(net(slave) / "device/driver").filename(), "mlx5_core");
    }
    // Two PCI functions of one card; the LAG RDMA device sits on the first.
    auto f0 = fs::canonical(net("ens5f0np0") / "device");
    auto f1 = fs::canonical(net("ens5f1np1") / "device");
    EXPECT_NE(f0, f1);
    EXPECT_EQ(f0.parent_path(), f1.parent_path());
    EXPECT_EQ(fs::canonical(ib("mlx5_bond_0") / "device"), f0);
    EXPECT_FALSE(fs::exists(f1 / "infiniband"));
    EXPECT_EQ(readFile(ib("mlx5_bond_0") / "ports/1/gid_attrs/ndevs/0"), "bond0\n");
}

TEST_F(SimLayoutTest, CounterNamesAreThoseOfARealH100Node)
{
    auto fixture = fs::path(NICD_SHARED_DIR) / "fixtures/gpud/sys-class-infiniband-h100.0/mlx5_0";
    auto pma = test::namesIn(fixture / "ports/1/counters");
    auto hw = test::namesIn(fixture / "ports/1/hw_counters");
    ASSERT_EQ(pma.size(), 21U);
    ASSERT_EQ(hw.size(), 26U);
    // IB ports: the fixture's names, and the two retry counters a current kernel adds
    // (extended_err_cnts; sim_ethtool_test checks the whole set). RoCE ports: those plus the
    // congestion group.
    EXPECT_EQ(test::namesIn(ib("mlx5_4") / "ports/1/counters"), pma);
    hw.insert({"req_rnr_retries_exceeded", "req_transport_retries_exceeded"});
    EXPECT_EQ(test::namesIn(ib("mlx5_4") / "ports/1/hw_counters"), hw);
    auto roce_hw = test::namesIn(ib("mlx5_0") / "ports/1/hw_counters");
    EXPECT_EQ(test::namesIn(ib("mlx5_0") / "ports/1/counters"), pma);
    for (const auto& n : hw)
        EXPECT_TRUE(roce_hw.contains(n)) << n;
    EXPECT_TRUE(roce_hw.contains("np_ecn_marked_roce_packets"));
    EXPECT_EQ(readFile(ib("mlx5_0") / "ports/1/hw_counters/lifespan"), "12\n");
    EXPECT_EQ(readFile(ib("mlx5_0") / "ports/1/counters/symbol_error"), "0\n");
}

TEST_F(SimLayoutTest, EthtoolStatisticsInEthtoolTextFormat)
{
    auto text = readFile(dir_ / "run/nicd-sim/ethtool/ens1f0np0");
    ASSERT_TRUE(text.starts_with("NIC statistics:\n"));
    std::istringstream in(text.substr(16));
    std::set<std::string> names;
    std::string line;
    std::smatch m;
    while (std::getline(in, line)) {
        ASSERT_TRUE(std::regex_match(line, m, std::regex("     ([a-z0-9_]+): ([0-9]+)"))) << line;
        EXPECT_TRUE(names.insert(m[1]).second) << "duplicate " << m[1];
    }
    for (const char* n :
         {"rx_vport_unicast_packets", "rx_vport_unicast_bytes", "tx_vport_unicast_packets",
          "tx_vport_unicast_bytes", "rx_packets_phy", "rx_discards_phy", "tx_discards_phy",
          "rx_out_of_buffer", "rx_prio3_pause", "tx_prio3_pause", "rx_prio3_pause_duration",
          "rx_pause_ctrl_phy", "tx_pause_ctrl_phy", "rx_crc_errors_phy", "rx_symbol_err_phy",
          "link_down_events_phy", "rx_vport_rdma_unicast_bytes"})
        EXPECT_TRUE(names.contains(n)) << n;
    // Every mlx5 netdev has statistics; a VF has no physical-port ones; others have none.
    for (const char* nd :
         {"ens2f0np0", "ens3f0np0", "ens4f0np0", "ens5f0np0", "ens5f1np1", "ens6f0np0", "ens1f0v0"})
        EXPECT_TRUE(fs::exists(dir_ / "run/nicd-sim/ethtool" / nd)) << nd;
    auto vf = readFile(dir_ / "run/nicd-sim/ethtool/ens1f0v0");
    EXPECT_NE(vf.find("     rx_vport_unicast_packets: "), std::string::npos);
    EXPECT_EQ(vf.find("_phy:"), std::string::npos);
    EXPECT_FALSE(fs::exists(dir_ / "run/nicd-sim/ethtool/bond0"));
    EXPECT_FALSE(fs::exists(dir_ / "run/nicd-sim/ethtool/eno1"));
}

TEST_F(SimLayoutTest, HostFilesAroundTheDevices)
{
    // The default route leaves through eno1, a management NIC that is not an RDMA device.
    auto route = readFile(dir_ / "proc/net/route");
    ASSERT_TRUE(route.starts_with("Iface\tDestination\tGateway"));
    std::istringstream in(route);
    std::string line;
    std::string default_iface;
    std::getline(in, line);
    while (std::getline(in, line)) {
        std::istringstream fields(line);
        std::string iface;
        std::string dest;
        fields >> iface >> dest;
        if (dest == "00000000")
            default_iface = iface;
    }
    EXPECT_EQ(default_iface, "eno1");
    EXPECT_EQ(fs::canonical(net("eno1") / "device/driver").filename(), "igb");
    EXPECT_FALSE(fs::exists(fs::canonical(net("eno1") / "device") / "infiniband"));
    EXPECT_NE(route.find("\nens1f0np0\t"), std::string::npos);

    EXPECT_TRUE(fs::is_directory(dir_ / "etc/nicd"));
    EXPECT_TRUE(fs::is_empty(dir_ / "etc/nicd"));
    for (const char* d :
         {"var/lib/nicd", "var/lib/prometheus/node-exporter", "run", "sys/kernel/config"})
        EXPECT_TRUE(fs::is_directory(dir_ / d)) << d;
    EXPECT_FALSE(fs::exists(dir_ / "run/mellanox/drivers/.driver-ready"));

    auto other = test::makeTempDir("sim-ready", test::TempOn::Memory);
    sim::create(other, {.driver_ready = true});
    EXPECT_TRUE(fs::exists(other / "run/mellanox/drivers/.driver-ready"));
    fs::remove_all(other);
}

TEST_F(SimLayoutTest, CreateRefusesAnExistingNodeUnlessForced)
{
    sim::addToCounter(dir_, "mlx5_0", "symbol_error", 5);
    EXPECT_THROW(sim::create(dir_, {}), sim::SimError);
    EXPECT_EQ(sim::counterValue(dir_, "mlx5_0", "symbol_error"), 5U);
    sim::create(dir_, {.force = true});
    EXPECT_EQ(sim::counterValue(dir_, "mlx5_0", "symbol_error"), 0U);
    EXPECT_THROW(sim::create(dir_ / "x", {.devices = sim::kMaxDevices + 1}), sim::SimError);
}

TEST(SimManyDevices, SixtyFourRocePfsAllUp)
{
    auto dir = test::makeTempDir("sim64", test::TempOn::Memory);
    sim::create(dir, {.devices = 64});
    auto names = test::namesIn(dir / "sys/class/infiniband");
    ASSERT_EQ(names.size(), 64U);
    std::set<fs::path> functions;
    std::set<std::string> netdevs;
    for (int i = 0; i < 64; ++i) {
        auto d = dir / "sys/class/infiniband" / ("mlx5_" + std::to_string(i));
        SCOPED_TRACE(d.filename());
        EXPECT_EQ(readFile(d / "ports/1/state"), "4: ACTIVE\n");
        EXPECT_EQ(readFile(d / "ports/1/link_layer"), "Ethernet\n");
        EXPECT_EQ(fs::canonical(d / "device/driver").filename(), "mlx5_core");
        functions.insert(fs::canonical(d / "device"));
        auto nd = readFile(d / "ports/1/gid_attrs/ndevs/0");
        nd.pop_back();
        netdevs.insert(nd);
        EXPECT_EQ(readFile(dir / "sys/class/net" / nd / "operstate"), "up\n");
        EXPECT_TRUE(fs::exists(dir / "run/nicd-sim/ethtool" / nd));
    }
    EXPECT_EQ(functions.size(), 64U);
    EXPECT_EQ(netdevs.size(), 64U);
    EXPECT_EQ(sim::list(dir).size(), 64U);
    fs::remove_all(dir);
}

TEST(SimDeterminism, SameSeedSameNodeOtherSeedOtherLoad)
{
    auto a = test::makeTempDir("sim-a", test::TempOn::Memory);
    auto b = test::makeTempDir("sim-b", test::TempOn::Memory);
    auto c = test::makeTempDir("sim-c", test::TempOn::Memory);
    sim::create(a, {});
    sim::create(b, {});
    sim::create(c, {.seed = 7});
    for (const auto& d : {a, b, c})
        sim::tick(d, 10);
    auto strip = [](test::TreeSnapshot s) { // the lock and staging dir are not part of a node
        std::erase_if(s, [](const auto& kv) { return kv.first.starts_with("run/nicd-sim/tmp"); });
        return s;
    };
    EXPECT_EQ(strip(test::snapshotTree(a)), strip(test::snapshotTree(b)));
    EXPECT_NE(sim::counterValue(a, "mlx5_0", "port_rcv_data"),
              sim::counterValue(c, "mlx5_0", "port_rcv_data"));
    for (const auto& d : {a, b, c})
        fs::remove_all(d);
}
