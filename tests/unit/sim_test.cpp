// The simulated node: the kernel's layout, counters that advance, and each fault changing exactly
// what it should.
#include "sim.hpp"
#include "support/temp_dir.hpp"

#include <sys/stat.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

namespace fs = std::filesystem;
using namespace nicd;

namespace {

std::string read(const fs::path& p)
{
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

class SimTest : public test::TempDirTest {
protected:
    void SetUp() override
    {
        TempDirTest::SetUp();
        sim::create(dir_, {});
    }
    fs::path ib(const std::string& dev) { return dir_ / "sys/class/infiniband" / dev; }
};

} // namespace

TEST_F(SimTest, LayoutResolvesLikeTheKernels)
{
    auto d0 = fs::canonical(ib("mlx5_0"));
    EXPECT_EQ(d0.parent_path().filename(), "infiniband");
    EXPECT_NE(d0.string().find("/sys/devices/pci0000:00/"), std::string::npos);
    EXPECT_TRUE(fs::is_symlink(ib("mlx5_0")));
    EXPECT_EQ(fs::read_symlink(ib("mlx5_0")).string().substr(0, 6),
              "../../"); // relative, as the kernel
    EXPECT_EQ(fs::canonical(ib("mlx5_0") / "device/driver").filename(), "mlx5_core");
    EXPECT_EQ(fs::canonical(ib("mlx5_0") / "device").filename(), "0000:1a:00.0");
    EXPECT_EQ(fs::canonical(ib("mlx5_5") / "device/physfn"),
              fs::canonical(ib("mlx5_0") / "device"));
    EXPECT_EQ(read(dir_ / "sys/class/net/bond0/bonding/slaves"), "ens5f0np0 ens5f1np1\n");
    EXPECT_EQ(fs::canonical(dir_ / "sys/class/net/ens5f0np0/master"),
              fs::canonical(dir_ / "sys/class/net/bond0"));
    EXPECT_EQ(read(ib("mlx5_0") / "ports/1/gid_attrs/ndevs/0"), "ens1f0np0\n");
    EXPECT_EQ(read(ib("mlx5_6") / "ports/1/state"), "1: DOWN\n");
    EXPECT_NE(read(dir_ / "proc/net/route").find("eno1\t00000000"), std::string::npos);
    EXPECT_TRUE(fs::exists(dir_ / "run/nicd-sim/ethtool/ens1f0np0"));
    EXPECT_NE(read(dir_ / "run/nicd-sim/ethtool/ens1f0np0").find("     rx_prio3_pause: 0\n"),
              std::string::npos);
}

TEST_F(SimTest, TickAdvancesCountersOfUpPortsOnly)
{
    auto before = sim::counterValue(dir_, "mlx5_0", "port_rcv_data");
    sim::tick(dir_, 2);
    auto after = sim::counterValue(dir_, "mlx5_0", "port_rcv_data");
    EXPECT_GT(after, before);
    EXPECT_GT(sim::counterValue(dir_, "mlx5_0", "rx_vport_unicast_packets"), 0U);
    EXPECT_EQ(sim::counterValue(dir_, "mlx5_0", "symbol_error"), 0U);
    EXPECT_EQ(sim::counterValue(dir_, "mlx5_6", "port_rcv_data"), 0U); // down
}

TEST_F(SimTest, LinkDownAndUp)
{
    sim::linkDown(dir_, "mlx5_2");
    EXPECT_EQ(read(ib("mlx5_2") / "ports/1/state"), "1: DOWN\n");
    EXPECT_EQ(read(ib("mlx5_2") / "ports/1/phys_state"), "3: Disabled\n");
    EXPECT_EQ(read(dir_ / "sys/class/net/ens3f0np0/operstate"), "down\n");
    EXPECT_EQ(read(dir_ / "sys/class/net/ens3f0np0/carrier"), "0\n");
    EXPECT_EQ(sim::counterValue(dir_, "mlx5_2", "link_downed"), 1U);
    EXPECT_EQ(sim::counterValue(dir_, "mlx5_2", "link_down_events_phy"), 1U);
    EXPECT_EQ(read(ib("mlx5_1") / "ports/1/state"), "4: ACTIVE\n");
    sim::linkUp(dir_, "mlx5_2");
    EXPECT_EQ(read(ib("mlx5_2") / "ports/1/state"), "4: ACTIVE\n");
    EXPECT_EQ(read(dir_ / "sys/class/net/ens3f0np0/operstate"), "up\n");
}

TEST_F(SimTest, BurstsRatesWrapsAndResets)
{
    sim::addToCounter(dir_, "mlx5_0", "symbol_error", 500);
    EXPECT_EQ(sim::counterValue(dir_, "mlx5_0", "symbol_error"), 500U);
    sim::addToCounter(dir_, "mlx5_0", "rnr_nak_retry_err", 2);
    EXPECT_EQ(sim::counterValue(dir_, "mlx5_0", "rnr_nak_retry_err"), 2U);
    sim::addToCounter(dir_, "mlx5_0", "rx_prio3_pause", 9);
    EXPECT_EQ(sim::counterValue(dir_, "mlx5_0", "rx_prio3_pause"), 9U);
    EXPECT_THROW(sim::addToCounter(dir_, "mlx5_0", "no_such_counter", 1), sim::SimError);
    EXPECT_THROW(sim::addToCounter(dir_, "mlx5_77", "symbol_error", 1), sim::SimError);

    sim::setRate(dir_, "mlx5_1", "port_rcv_errors", 20);
    sim::tick(dir_, 3);
    EXPECT_EQ(sim::counterValue(dir_, "mlx5_1", "port_rcv_errors"), 60U);

    sim::wrap(dir_, "mlx5_1", "port_xmit_wait");
    EXPECT_EQ(sim::counterValue(dir_, "mlx5_1", "port_xmit_wait"), 0xffffffffULL - 1000);
    sim::tick(dir_, 2); // default 1000/s: wraps past 2^32
    EXPECT_LT(sim::counterValue(dir_, "mlx5_1", "port_xmit_wait"), 2000U);

    sim::resetCounters(dir_, "mlx5_1");
    EXPECT_EQ(sim::counterValue(dir_, "mlx5_1", "port_rcv_errors"), 0U);
    EXPECT_EQ(sim::counterValue(dir_, "mlx5_1", "port_rcv_data"), 0U);
}

TEST_F(SimTest, RemoveAndRestoreRoundTrip)
{
    auto fw = read(ib("mlx5_3") / "fw_ver");
    sim::remove(dir_, "mlx5_3");
    EXPECT_FALSE(fs::exists(ib("mlx5_3")));
    EXPECT_FALSE(fs::is_symlink(ib("mlx5_3")));
    EXPECT_THROW(sim::remove(dir_, "mlx5_3"), sim::SimError);
    sim::tick(dir_, 1); // a removed device is skipped
    sim::restore(dir_, "mlx5_3");
    EXPECT_EQ(read(ib("mlx5_3") / "fw_ver"), fw);
}

TEST_F(SimTest, StallReplacesCountersWithFifosAndUnstallRestoresValues)
{
    sim::addToCounter(dir_, "mlx5_0", "symbol_error", 3);
    sim::stall(dir_, "mlx5_0");
    struct stat st {};
    ASSERT_EQ(::stat((ib("mlx5_0") / "ports/1/counters/symbol_error").c_str(), &st), 0);
    EXPECT_TRUE(S_ISFIFO(st.st_mode));
    sim::tick(dir_, 1); // must not block on the FIFOs
    sim::unstall(dir_, "mlx5_0");
    EXPECT_EQ(sim::counterValue(dir_, "mlx5_0", "symbol_error"), 3U);
}

TEST(SimMany, SixtyFourDevices)
{
    auto dir = test::makeTempDir("sim64");
    sim::create(dir, {.devices = 64});
    size_t n = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir / "sys/class/infiniband"))
        ++n;
    EXPECT_EQ(n, 64U);
    EXPECT_EQ(sim::list(dir).size(), 64U);
    EXPECT_THROW(sim::create(dir, {.devices = 64}), sim::SimError); // exists, no --force
    fs::remove_all(dir);
}

TEST(SimCli, ErrorsNameTheDevice)
{
    auto dir = test::makeTempDir("simcli");
    std::string sim = NICD_SIM_BIN;
    ASSERT_EQ(std::system((sim + " create " + dir.string() + " >/dev/null").c_str()), 0);
    ASSERT_EQ(std::system((sim + " inject " + dir.string() + " link-down mlx5_1").c_str()), 0);
    auto out = dir / "err";
    EXPECT_NE(
        std::system(
            (sim + " inject " + dir.string() + " link-down mlx5_42 2>" + out.string()).c_str()),
        0);
    EXPECT_NE(read(out).find("no simulated device 'mlx5_42'"), std::string::npos);
    fs::remove_all(dir);
}
