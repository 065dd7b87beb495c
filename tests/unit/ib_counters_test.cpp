// IB PMA counters: every file read, *_data published in bytes, unreadable files reported and
// backed off (not retried every cycle), recovery noticed.
#include "collect/backoff.hpp"
#include "collect/ib_counters.hpp"
#include "inventory/sysfs_inventory.hpp"
#include "sim.hpp"
#include "support/temp_dir.hpp"

#include <fstream>

#include <gtest/gtest.h>

using namespace nicd;
namespace fs = std::filesystem;

namespace {

const Sample* find(const DeviceSamples& ds, const std::string& name, uint32_t port = 1)
{
    for (const auto& s : ds.samples)
        if (s.name == name && s.port == port)
            return &s;
    return nullptr;
}

class IbCountersTest : public test::TempDirTest {};

} // namespace

TEST_F(IbCountersTest, ReadsEveryCounterAndConvertsDataToBytes)
{
    sim::create(dir_, {});
    sim::addToCounter(dir_, "mlx5_0", "port_rcv_data", 1000);
    sim::addToCounter(dir_, "mlx5_0", "symbol_error", 7);
    auto inv = discoverInventory(HostPaths(dir_));
    IbCounterReader reader;
    DeviceSamples ds;
    reader.read(*inv.find("mlx5_0"), 0, ds);
    EXPECT_TRUE(ds.errors.empty());
    EXPECT_EQ(ds.samples.size(), 21U);
    ASSERT_TRUE(find(ds, "port_rcv_data_bytes"));
    EXPECT_EQ(find(ds, "port_rcv_data_bytes")->value, 4000U);
    EXPECT_FALSE(find(ds, "port_rcv_data"));
    EXPECT_EQ(find(ds, "symbol_error")->value, 7U);
    EXPECT_EQ(find(ds, "symbol_error")->source, kSourceIbCounters);
}

TEST_F(IbCountersTest, NodeExporterFixtureNoPmaAndSaturated)
{
    fs::create_directories(dir_ / "sys/class");
    fs::create_symlink(fs::path(NICD_SHARED_DIR) / "fixtures/node_exporter/sys/class/infiniband",
                       dir_ / "sys/class/infiniband");
    auto inv = discoverInventory(HostPaths(dir_));
    IbCounterReader reader;
    DeviceSamples i40;
    reader.read(*inv.find("i40iw0"), 0, i40);
    EXPECT_TRUE(i40.samples.empty());
    ASSERT_FALSE(i40.errors.empty());
    EXPECT_NE(i40.errors[0].message.find("N/A (no PMA)"), std::string::npos);
    DeviceSamples mlx4;
    reader.read(*inv.find("mlx4_0"), 0, mlx4);
    ASSERT_TRUE(find(mlx4, "port_xmit_wait"));
    EXPECT_EQ(find(mlx4, "port_xmit_wait")->value, 4294967295U);
}

TEST_F(IbCountersTest, FailingFileIsBackedOffAndRecoveryIsNoticed)
{
    sim::create(dir_, {});
    auto counters = fs::canonical(dir_ / "sys/class/infiniband/mlx5_1/ports/1/counters");
    fs::remove(counters / "symbol_error");
    fs::create_directory(counters / "symbol_error"); // read() fails with EISDIR
    auto inv = discoverInventory(HostPaths(dir_));
    IbCounterReader reader;
    // Attempts on which the file was tried, over 16 reads: 1st, then after skipping 1, 2, 4, 8.
    std::vector<int> tried;
    for (int i = 1; i <= 16; ++i) {
        DeviceSamples ds;
        reader.read(*inv.find("mlx5_1"), 0, ds);
        EXPECT_FALSE(find(ds, "symbol_error"));
        EXPECT_EQ(ds.samples.size(), 20U) << "other counters are still read";
        if (!ds.errors.empty()) {
            tried.push_back(i);
            EXPECT_NE(ds.errors[0].what.find("symbol_error"), std::string::npos);
        }
    }
    EXPECT_EQ(tried, (std::vector<int>{1, 3, 6, 11}));
    fs::remove(counters / "symbol_error");
    std::ofstream(counters / "symbol_error") << "5\n";
    bool seen = false;
    for (int i = 0; i < 20 && !seen; ++i) {
        DeviceSamples ds;
        reader.read(*inv.find("mlx5_1"), 0, ds);
        seen = find(ds, "symbol_error") != nullptr;
    }
    EXPECT_TRUE(seen);
}

TEST(Backoff, SkipsExponentiallyMoreAndResetsOnSuccess)
{
    Backoff b(4);
    std::string k = "f";
    EXPECT_TRUE(b.shouldTry(k));
    EXPECT_TRUE(b.failed(k)); // first failure: worth a log line
    EXPECT_FALSE(b.shouldTry(k));
    EXPECT_TRUE(b.shouldTry(k));
    EXPECT_FALSE(b.failed(k)); // second failure: no new log line
    EXPECT_FALSE(b.shouldTry(k));
    EXPECT_FALSE(b.shouldTry(k));
    EXPECT_TRUE(b.shouldTry(k));
    b.failed(k);
    b.failed(k);
    b.failed(k); // capped at 4 skips
    int skipped = 0;
    while (!b.shouldTry(k))
        ++skipped;
    EXPECT_EQ(skipped, 4);
    EXPECT_EQ(b.failures(k), 5U);
    EXPECT_TRUE(b.succeeded(k));
    EXPECT_FALSE(b.succeeded(k));
    EXPECT_EQ(b.failures(k), 0U);
    EXPECT_TRUE(b.shouldTry(k));
}
