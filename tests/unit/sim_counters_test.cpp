// Simulated counters: ticks advance them like a busy port, faults change exactly the counter
// named, they overflow the way the hardware's do, and a counter can read "N/A (no PMA)".
#include "collect/ib_counters.hpp"
#include "inventory/sysfs_inventory.hpp"
#include "sim.hpp"
#include "support/sim_tree.hpp"

#include <gtest/gtest.h>

namespace fs = std::filesystem;
using namespace nicd;
using test::readFile;

namespace {

class SimCountersTest : public test::SimDirTest {
protected:
    void SetUp() override
    {
        SimDirTest::SetUp();
        sim::create(dir_, {});
    }
    uint64_t value(const std::string& dev, const std::string& counter)
    {
        return sim::counterValue(dir_, dev, counter);
    }
    // Every counter file and ethtool statistic of the node, by path (and statistic name).
    std::map<std::string, uint64_t> allCounters()
    {
        std::map<std::string, uint64_t> out;
        for (const auto& [path, text] : test::snapshotTree(dir_)) {
            if (path.find("/counters/") != std::string::npos ||
                path.find("/hw_counters/") != std::string::npos) {
                out[path] = std::stoull(text);
            } else if (path.starts_with("run/nicd-sim/ethtool/")) {
                std::istringstream in(text);
                std::string line;
                while (std::getline(in, line))
                    if (auto colon = line.rfind(": "); colon != std::string::npos)
                        out[path + ":" + line.substr(5, colon - 5)] =
                            std::stoull(line.substr(colon + 2));
            }
        }
        return out;
    }
    static std::set<std::string> changed(const std::map<std::string, uint64_t>& a,
                                         const std::map<std::string, uint64_t>& b)
    {
        std::set<std::string> out;
        for (const auto& [k, v] : b)
            if (a.at(k) != v)
                out.insert(k);
        return out;
    }
};

} // namespace

TEST_F(SimCountersTest, TickAdvancesDataCountersOfUpPortsAndLeavesErrorsAlone)
{
    auto before = allCounters();
    sim::tick(dir_, 2);
    auto after = allCounters();
    ASSERT_EQ(before.size(), after.size());
    for (const auto& [k, v] : after) // no counter goes backwards on a tick
        EXPECT_GE(v, before.at(k)) << k;
    auto moved = changed(before, after);
    auto has = [&](const std::string& part) {
        for (const auto& k : moved)
            if (k.find(part) != std::string::npos)
                return true;
        return false;
    };
    EXPECT_TRUE(has("infiniband/mlx5_0/ports/1/counters/port_rcv_data"));
    EXPECT_TRUE(has("infiniband/mlx5_4/ports/1/counters/port_xmit_packets")); // IB port
    EXPECT_TRUE(has("infiniband/mlx5_bond_0/ports/1/hw_counters/rx_write_requests"));
    EXPECT_TRUE(has("ethtool/ens1f0np0:rx_vport_unicast_packets"));
    EXPECT_TRUE(has("ethtool/ens5f1np1:rx_prio3_bytes"));
    // Errors stay at 0 by default; the down port and the lifespan setting do not move.
    for (const auto& k : moved) {
        EXPECT_EQ(k.find("error"), std::string::npos) << k;
        EXPECT_EQ(k.find("pause"), std::string::npos) << k;
        EXPECT_EQ(k.find("discard"), std::string::npos) << k;
        EXPECT_EQ(k.find("mlx5_6"), std::string::npos) << k;
        EXPECT_EQ(k.find("ens6f0np0"), std::string::npos) << k;
        EXPECT_EQ(k.find("lifespan"), std::string::npos) << k;
    }
    // About 100 Gb/s at most: port_rcv_data is in 4-octet words.
    auto words = value("mlx5_0", "port_rcv_data");
    EXPECT_GT(words, 2 * 0.5 * 1.25e10 / 4 - 1);
    EXPECT_LE(words, 2 * 1.25e10 / 4 + 1);
}

TEST_F(SimCountersTest, BurstChangesOnlyTheCounterNamed)
{
    for (const char* c : {"symbol_error", "rnr_nak_retry_err", "rx_prio3_pause"}) {
        SCOPED_TRACE(c);
        auto before = allCounters();
        sim::addToCounter(dir_, "mlx5_1", c, 500);
        auto moved = changed(before, allCounters());
        ASSERT_EQ(moved.size(), 1U);
        EXPECT_NE(moved.begin()->find(c), std::string::npos);
        EXPECT_EQ(value("mlx5_1", c), 500U);
    }
    EXPECT_EQ(value("mlx5_0", "symbol_error"), 0U);
}

TEST_F(SimCountersTest, ErrorsNameTheDeviceAndCounter)
{
    try {
        sim::addToCounter(dir_, "mlx5_0", "no_such_counter", 1);
        FAIL();
    } catch (const sim::SimError& e) {
        EXPECT_NE(std::string(e.what()).find("mlx5_0 port 1 has no counter 'no_such_counter'"),
                  std::string::npos)
            << e.what();
    }
    try {
        sim::addToCounter(dir_, "mlx5_77", "symbol_error", 1);
        FAIL();
    } catch (const sim::SimError& e) {
        EXPECT_NE(std::string(e.what()).find("no simulated device 'mlx5_77'"), std::string::npos);
    }
    EXPECT_THROW(sim::addToCounter(dir_, "mlx5_0", "symbol_error", 1, 2), sim::SimError); // port
    EXPECT_THROW(sim::addToCounter(dir_, "mlx5_0", "lifespan", 1), sim::SimError); // a setting
    EXPECT_THROW(sim::setRate(dir_, "mlx5_0", "symbol_error", -1), sim::SimError);
}

TEST_F(SimCountersTest, RateMakesACounterClimbOnEveryTickEvenWhenSlow)
{
    sim::setRate(dir_, "mlx5_1", "port_rcv_errors", 20);
    sim::setRate(dir_, "mlx5_1", "rx_discards_phy", 0.5);
    sim::setRate(dir_, "mlx5_6", "symbol_error", 3); // a down port still counts what is injected
    sim::tick(dir_, 3);
    EXPECT_EQ(value("mlx5_1", "port_rcv_errors"), 60U);
    EXPECT_EQ(value("mlx5_6", "symbol_error"), 9U);
    for (int i = 0; i < 3; ++i)
        sim::tick(dir_, 1);
    EXPECT_EQ(value("mlx5_1", "port_rcv_errors"), 120U);
    EXPECT_EQ(value("mlx5_1", "rx_discards_phy"), 3U); // 0.5/s over 6 s
    sim::setRate(dir_, "mlx5_1", "port_rcv_errors", 0);
    sim::tick(dir_, 5);
    EXPECT_EQ(value("mlx5_1", "port_rcv_errors"), 120U);
    EXPECT_EQ(value("mlx5_0", "port_rcv_errors"), 0U);
}

TEST_F(SimCountersTest, PmaCountersSaturateAtTheirWidth)
{
    sim::addToCounter(dir_, "mlx5_0", "link_downed", 300); // 8 bits
    EXPECT_EQ(value("mlx5_0", "link_downed"), 255U);
    sim::addToCounter(dir_, "mlx5_0", "local_link_integrity_errors", 40); // 4 bits
    EXPECT_EQ(value("mlx5_0", "local_link_integrity_errors"), 15U);
    sim::addToCounter(dir_, "mlx5_0", "port_xmit_wait", 0xffffffffULL - 10); // 32 bits
    sim::tick(dir_, 1);
    EXPECT_EQ(value("mlx5_0", "port_xmit_wait"), 0xffffffffULL);
}

TEST_F(SimCountersTest, QCountersWrapAt32Bits)
{
    sim::addToCounter(dir_, "mlx5_0", "out_of_buffer", 0xffffffffULL);
    sim::addToCounter(dir_, "mlx5_0", "out_of_buffer", 5);
    EXPECT_EQ(value("mlx5_0", "out_of_buffer"), 4U);
}

TEST_F(SimCountersTest, WrapPutsACounterJustBelow2To32AndTicksWrapIt)
{
    sim::wrap(dir_, "mlx5_1", "port_xmit_wait"); // 1000/s at full load
    EXPECT_EQ(value("mlx5_1", "port_xmit_wait"), sim::kWrapStart);
    sim::tick(dir_, 3);
    auto wrapped = value("mlx5_1", "port_xmit_wait");
    EXPECT_LT(wrapped, 3000U); // 1500..3000 added at 50..100% load
    sim::tick(dir_, 1);
    EXPECT_GT(value("mlx5_1", "port_xmit_wait"), wrapped); // counts on from the small value

    sim::wrap(dir_, "mlx5_1", "rx_vport_rdma_unicast_bytes"); // an ethtool statistic
    EXPECT_EQ(value("mlx5_1", "rx_vport_rdma_unicast_bytes"), sim::kWrapStart);
    sim::tick(dir_, 1);
    EXPECT_LT(value("mlx5_1", "rx_vport_rdma_unicast_bytes"), 1ULL << 32);

    try {
        sim::wrap(dir_, "mlx5_1", "symbol_error");
        FAIL();
    } catch (const sim::SimError& e) {
        EXPECT_NE(std::string(e.what()).find("symbol_error is a 16-bit counter"), std::string::npos)
            << e.what();
    }
}

TEST_F(SimCountersTest, ResetZeroesEveryCounterOfTheDeviceOnly)
{
    sim::tick(dir_, 5);
    sim::addToCounter(dir_, "mlx5_1", "symbol_error", 7);
    auto before = allCounters();
    sim::resetCounters(dir_, "mlx5_1");
    auto after = allCounters();
    for (const auto& [k, v] : after) {
        bool mine = k.find("infiniband/mlx5_1/") != std::string::npos ||
                    k.find("ethtool/ens2f0np0:") != std::string::npos;
        if (mine && k.find("lifespan") == std::string::npos)
            EXPECT_EQ(v, 0U) << k;
        else
            EXPECT_EQ(v, before.at(k)) << k;
    }
    EXPECT_EQ(readFile(fs::canonical(dir_ / "sys/class/infiniband/mlx5_1") /
                       "ports/1/hw_counters/lifespan"),
              "12\n");
    sim::tick(dir_, 1);
    EXPECT_GT(value("mlx5_1", "port_rcv_data"), 0U); // counts on from zero
}

TEST_F(SimCountersTest, FilesAreReplacedWholeAndNoTemporaryNameIsLeft)
{
    sim::tick(dir_, 1);
    sim::addToCounter(dir_, "mlx5_0", "rx_prio3_pause", 1);
    for (const auto& [path, text] : test::snapshotTree(dir_ / "sys")) {
        EXPECT_EQ(path.find("tmp"), std::string::npos) << path;
        EXPECT_FALSE(text.empty() && path.find("/counters/") != std::string::npos) << path;
    }
    EXPECT_TRUE(fs::is_empty(dir_ / "run/nicd-sim/tmp"));
}

// A refused counter file: mode 0000 (EACCES for a reader without CAP_DAC_OVERRIDE, as nicd is),
// kept across ticks and bursts while its value still moves; refuse-clear makes it readable.
TEST_F(SimCountersTest, ARefusedFileStaysRefusedUntilCleared)
{
    sim::setRate(dir_, "mlx5_0", "symbol_error", 10);
    sim::refuseCounter(dir_, "mlx5_0", "symbol_error", true);
    sim::refuseCounter(dir_, "mlx5_0", "out_of_buffer", true);
    const auto pma = fs::canonical(dir_ / "sys/class/infiniband/mlx5_0/ports/1/counters");
    const auto hw = pma.parent_path() / "hw_counters";
    EXPECT_EQ(fs::status(pma / "symbol_error").permissions(), fs::perms::none);
    sim::tick(dir_, 2);
    sim::addToCounter(dir_, "mlx5_0", "out_of_buffer", 5);
    EXPECT_EQ(fs::status(pma / "symbol_error").permissions(), fs::perms::none) << "kept by ticks";
    EXPECT_EQ(fs::status(hw / "out_of_buffer").permissions(), fs::perms::none) << "and bursts";
    EXPECT_EQ(value("mlx5_0", "symbol_error"), 20U) << "the firmware still counts";
    sim::refuseCounter(dir_, "mlx5_0", "symbol_error", false);
    EXPECT_EQ(fs::status(pma / "symbol_error").permissions() & fs::perms::owner_read,
              fs::perms::owner_read);
    EXPECT_EQ(fs::status(pma / "port_rcv_errors").permissions(),
              fs::status(pma / "symbol_error").permissions());
    try {
        sim::refuseCounter(dir_, "mlx5_0", "rx_prio3_pause", true);
        ADD_FAILURE() << "an ethtool statistic is no file";
    } catch (const sim::SimError& e) {
        EXPECT_NE(std::string(e.what()).find("rx_prio3_pause is an ethtool statistic"),
                  std::string::npos)
            << e.what();
    }
}

// "N/A (no PMA)": what the kernel prints for a counters/ file of a driver without a PMA agent
// (irdma, i40iw). It stays so through ticks, bursts of other counters and resets, and nicd reads
// it as no such counter: no sample, no read error; the port's other counters are read.
TEST_F(SimCountersTest, ANoPmaCounterStaysSoAndNicdReadsItAsNoCounter)
{
    sim::setRate(dir_, "mlx5_0", "symbol_error", 10);
    sim::noPmaCounter(dir_, "mlx5_0", "symbol_error");
    const auto pma = fs::canonical(dir_ / "sys/class/infiniband/mlx5_0/ports/1/counters");
    sim::tick(dir_, 2);
    sim::addToCounter(dir_, "mlx5_0", "port_rcv_errors", 5);
    sim::resetCounters(dir_, "mlx5_0");
    EXPECT_EQ(readFile(pma / "symbol_error"), "N/A (no PMA)\n");
    EXPECT_EQ(readFile(pma / "port_rcv_errors"), "0\n");

    auto inv = inventory::discoverInventory(HostPaths(dir_));
    collect::IbCounterReader reader;
    DeviceSamples ds;
    reader.read(*inv.find("mlx5_0"), 0, ds);
    EXPECT_TRUE(ds.errors.empty()) << ds.errors.front().what << ": " << ds.errors.front().message;
    bool symbol_error = false, port_rcv_errors = false;
    for (const auto& s : toSamples(ds)) {
        symbol_error |= s.name == "symbol_error";
        port_rcv_errors |= s.name == "port_rcv_errors";
    }
    EXPECT_FALSE(symbol_error);
    EXPECT_TRUE(port_rcv_errors);

    try {
        sim::noPmaCounter(dir_, "mlx5_0", "out_of_buffer");
        ADD_FAILURE() << "hw_counters/ is no PMA counter";
    } catch (const sim::SimError& e) {
        EXPECT_NE(std::string(e.what()).find("out_of_buffer is not in counters/"),
                  std::string::npos)
            << e.what();
    }
}
