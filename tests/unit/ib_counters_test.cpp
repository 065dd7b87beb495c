// IB PMA counters (ports/N/counters): every file read, *_data published in bytes, unreadable
// files reported and backed off instead of being read every cycle, "N/A (no PMA)" files left out
// quietly (no such counter), recovery seen, files the firmware refuses dropped until a reload.
#include "collect/ib_counters.hpp"
#include "inventory/sysfs_inventory.hpp"
#include "support/log_capture.hpp"
#include "support/refused_files.hpp"
#include "support/sysfs_tree.hpp"
#include "support/temp_dir.hpp"

#include <cstring>
#include <sstream>

#include <gtest/gtest.h>

using namespace nicd;
namespace fs = std::filesystem;

namespace {

std::optional<Sample> find(const DeviceSamples& ds, const std::string& name, uint32_t port = 1)
{
    for (const auto& s : toSamples(ds))
        if (s.name == name && s.port == port)
            return s;
    return std::nullopt;
}

class IbCountersTest : public test::TempDirTest {
protected:
    // mlx5_0 with one RoCE port and the 21 counters of the mlx5 ext table.
    Device buildDevice(test::SysfsTree& t)
    {
        t.addPciFunction({.bdf = "0000:3b:00.0"});
        t.addIbDevice({.name = "mlx5_0", .bdf = "0000:3b:00.0"});
        auto counters = test::SysfsTree::pmaCounters(3);
        counters["port_rcv_data"] = "1000";
        counters["port_xmit_data"] = "4611686018427387904"; // 2^62 words: 2^64 bytes would overflow
        counters["symbol_error"] = "7";
        t.addPort("mlx5_0", {.counters = counters});
        return *inventory::discoverInventory(HostPaths(dir_)).find("mlx5_0");
    }

    DeviceSamples readOnce(collect::IbCounterReader& reader, const Device& d)
    {
        DeviceSamples ds;
        reader.read(d, 0, ds);
        return ds;
    }

    fs::path fixtureClass(const fs::path& class_dir)
    {
        fs::create_directories(dir_ / "sys/class");
        fs::create_symlink(class_dir, dir_ / "sys/class/infiniband");
        return dir_;
    }
};

} // namespace

TEST_F(IbCountersTest, ReadsEveryCounterAndPublishesDataInBytes)
{
    test::SysfsTree t(dir_);
    auto d = buildDevice(t);
    collect::IbCounterReader reader;
    auto ds = readOnce(reader, d);
    EXPECT_TRUE(ds.errors.empty());
    EXPECT_EQ(ds.size(), 21U);
    ASSERT_TRUE(find(ds, "port_rcv_data_bytes"));
    EXPECT_EQ(find(ds, "port_rcv_data_bytes")->value, 4000U);
    EXPECT_FALSE(find(ds, "port_rcv_data"));
    EXPECT_FALSE(find(ds, "port_xmit_data"));
    ASSERT_TRUE(find(ds, "port_xmit_data_bytes"));
    const auto sym = find(ds, "symbol_error");
    ASSERT_TRUE(sym);
    EXPECT_EQ(sym->value, 7U);
    EXPECT_EQ(sym->source, kSourceIbCounters);
    EXPECT_EQ(sym->kind, SampleKind::Counter);
    EXPECT_EQ(sym->port, 1U);
    EXPECT_EQ(find(ds, "port_rcv_packets")->value, 3U); // not multiplied
}

TEST_F(IbCountersTest, H100FixtureCountersOfEveryDevice)
{
    auto root =
        fixtureClass(fs::path(NICD_SHARED_DIR) / "fixtures/gpud/sys-class-infiniband-h100.0");
    auto inv = inventory::discoverInventory(HostPaths(root));
    collect::IbCounterReader reader;
    auto ds = readOnce(reader, *inv.find("mlx5_0"));
    EXPECT_TRUE(ds.errors.empty());
    EXPECT_EQ(ds.size(), 21U);
    ASSERT_TRUE(find(ds, "port_rcv_data_bytes"));
    EXPECT_EQ(find(ds, "port_rcv_data_bytes")->value, 4 * 230539874932483ULL);
}

TEST_F(IbCountersTest, NodeExporterFixtureNoPmaIsNoCounterQuietlyAndSaturatedValueKept)
{
    auto inv = inventory::discoverInventory(HostPaths(
        fixtureClass(fs::path(NICD_SHARED_DIR) / "fixtures/node_exporter/sys/class/infiniband")));
    collect::IbCounterReader reader;
    test::LogCapture log;

    // Every file of i40iw0's counters/ reads "N/A (no PMA)": no such counter, as node_exporter
    // reads it. No sample, no read error (nicd_read_errors_total), nothing above debug.
    for (int i = 0; i < 100; ++i) {
        auto ds = readOnce(reader, *inv.find("i40iw0"));
        EXPECT_TRUE(ds.errors.empty()) << "read " << i + 1 << " reported a read error";
        EXPECT_TRUE(ds.empty());
    }
    EXPECT_EQ(log.count("no PMA"), 1U) << log.text();
    std::istringstream lines(log.text());
    for (std::string line; std::getline(lines, line);)
        EXPECT_TRUE(line.starts_with("debug ")) << line;
    EXPECT_NE(log.text().find("VL15_dropped"), std::string::npos) << log.text();

    auto mlx4 = readOnce(reader, *inv.find("mlx4_0"));
    EXPECT_TRUE(mlx4.errors.empty());
    ASSERT_TRUE(find(mlx4, "port_xmit_wait"));
    EXPECT_EQ(find(mlx4, "port_xmit_wait")->value, 4294967295U); // saturated, kept as read
    EXPECT_EQ(find(mlx4, "port_xmit_data_bytes")->value, 4U * 3733440U);
    EXPECT_EQ(find(mlx4, "port_xmit_discards")->value, 5U);
    // Port 2 has only some counters: those are read, the missing ones are no error.
    EXPECT_TRUE(find(mlx4, "unicast_rcv_packets", 2));
    EXPECT_FALSE(find(mlx4, "port_xmit_wait", 2));
}

TEST_F(IbCountersTest, FailingFileIsBackedOffExponentiallyAndRecoveryIsNoticed)
{
    test::SysfsTree t(dir_);
    auto d = buildDevice(t);
    auto file = t.ibDir("mlx5_0") + "/ports/1/counters/symbol_error";
    t.makeUnreadable(file); // read() fails with EISDIR, even as root
    collect::IbCounterReader reader;

    // Reads on which the file was tried: the 1st, then after skipping 1, 2, 4, 8, 16, 32 reads.
    std::vector<int> tried;
    for (int i = 1; i <= 70; ++i) {
        auto ds = readOnce(reader, d);
        EXPECT_FALSE(find(ds, "symbol_error"));
        EXPECT_EQ(ds.size(), 20U) << "the other counters are still read";
        if (!ds.errors.empty()) {
            tried.push_back(i);
            ASSERT_EQ(ds.errors.size(), 1U);
            EXPECT_EQ(ds.errors[0].what, (dir_ / "sys/class/infiniband/mlx5_0/ports/1/counters/"
                                                 "symbol_error")
                                             .string());
            EXPECT_EQ(ds.errors[0].message, std::strerror(EISDIR));
        }
    }
    EXPECT_EQ(tried, (std::vector<int>{1, 3, 6, 11, 20, 37, 70}));

    fs::remove(t.path(file));
    t.write(file, "5");
    int reads_until_seen = 0;
    for (bool seen = false; !seen && reads_until_seen < 100; ++reads_until_seen)
        seen = find(readOnce(reader, d), "symbol_error").has_value();
    EXPECT_EQ(reads_until_seen, 65); // capped: 64 reads skipped, then it is read again
    // From then on, every read.
    for (int i = 0; i < 3; ++i)
        EXPECT_EQ(find(readOnce(reader, d), "symbol_error")->value, 5U);
}

TEST_F(IbCountersTest, GarbageContentIsAnErrorThatNamesWhatWasRead)
{
    test::SysfsTree t(dir_);
    auto d = buildDevice(t);
    t.write(t.ibDir("mlx5_0") + "/ports/1/counters/link_downed", "-1");
    t.write(t.ibDir("mlx5_0") + "/ports/1/counters/port_xmit_wait", "");
    collect::IbCounterReader reader;
    auto ds = readOnce(reader, d);
    ASSERT_EQ(ds.errors.size(), 2U);
    EXPECT_TRUE(ds.errors[0].what.ends_with("/link_downed"));
    EXPECT_EQ(ds.errors[0].message, "not a counter value: '-1'");
    EXPECT_TRUE(ds.errors[1].what.ends_with("/port_xmit_wait"));
    EXPECT_EQ(ds.errors[1].message, "empty file");
    EXPECT_EQ(ds.size(), 19U);
    // Backed off on the next read.
    EXPECT_TRUE(readOnce(reader, d).errors.empty());
}

TEST_F(IbCountersTest, BackoffIsPerDeviceAndPortsWithoutCountersAreNoError)
{
    test::SysfsTree t(dir_);
    auto d0 = buildDevice(t);
    t.addPciFunction({.bdf = "0000:3b:00.1"});
    t.addIbDevice({.name = "mlx5_1", .bdf = "0000:3b:00.1"});
    t.addPort("mlx5_1", {.counters = test::SysfsTree::pmaCounters(1)});
    t.addIbDevice({.name = "siw0"}); // iWARP: no counters/ directory
    t.addPort("siw0", {});
    fs::remove_all(t.path(t.ibDir("siw0") + "/ports/1/counters"));
    t.makeUnreadable(t.ibDir("mlx5_0") + "/ports/1/counters/symbol_error");
    auto inv = inventory::discoverInventory(HostPaths(dir_));
    collect::IbCounterReader reader;
    EXPECT_EQ(readOnce(reader, *inv.find("mlx5_0")).errors.size(), 1U);
    auto other = readOnce(reader, *inv.find("mlx5_1"));
    EXPECT_TRUE(other.errors.empty());
    EXPECT_EQ(other.size(), 21U);
    auto siw = readOnce(reader, *inv.find("siw0"));
    EXPECT_TRUE(siw.errors.empty());
    EXPECT_TRUE(siw.empty());
}

// A file the firmware refuses (EACCES here; EINVAL and EOPNOTSUPP alike) is tried on the backoff's
// schedule, dropped at its third refusal in a row, said once with the file and the errno, counted,
// and not tried again, even once it could be read; a reload (setDropAfter) reads it again.
TEST_F(IbCountersTest, ARefusedFileIsDroppedUntilAReload)
{
    test::SysfsTree t(dir_);
    auto d = buildDevice(t);
    const auto file = t.path(t.ibDir("mlx5_0") + "/ports/1/counters/symbol_error");
    test::refuseReads(file);
    test::NoDacOverride refused;
    test::LogCapture log;
    collect::IbCounterReader reader;
    std::vector<int> tried;
    DeviceSamples ds;
    for (int i = 1; i <= 100; ++i) {
        ds = readOnce(reader, d);
        EXPECT_EQ(ds.size(), 20U) << "the other counters are still read";
        if (ds.errors.empty())
            continue;
        tried.push_back(i);
        EXPECT_EQ(ds.errors[0].message, std::strerror(EACCES));
    }
    EXPECT_EQ(tried, (std::vector<int>{1, 3, 6}));
    EXPECT_EQ(ds.files_dropped, 1U);
    const std::string dropped =
        "warning " + (dir_ / "sys/class/infiniband/mlx5_0/ports/1/counters").string() +
        ": symbol_error (Permission denied): refused 3 reads in a row; dropped, not read again "
        "until nicd is reloaded or the node reboots\n";
    EXPECT_NE(log.text().find(dropped), std::string::npos) << log.text();
    EXPECT_EQ(log.text().find("dropped"), log.text().rfind("dropped")) << "said once";

    fs::permissions(file, fs::perms::owner_read | fs::perms::owner_write);
    EXPECT_FALSE(find(readOnce(reader, d), "symbol_error")) << "dropped until a reload";
    reader.setDropAfter(3);
    ds = readOnce(reader, d);
    EXPECT_EQ(find(ds, "symbol_error")->value, 7U);
    EXPECT_EQ(ds.files_dropped, 0U);
}

// Other errors are retried for ever, less and less often; DropCounterAfter=0 never drops.
TEST_F(IbCountersTest, OnlyRefusalsDropAndZeroNeverDrops)
{
    test::SysfsTree t(dir_);
    auto d = buildDevice(t);
    t.makeUnreadable(t.ibDir("mlx5_0") + "/ports/1/counters/symbol_error"); // EISDIR
    test::refuseReads(t.path(t.ibDir("mlx5_0") + "/ports/1/counters/link_downed"));
    test::NoDacOverride refused;
    collect::IbCounterReader reader;
    reader.setDropAfter(0);
    int eisdir = 0, eacces = 0;
    for (int i = 0; i < 150; ++i)
        for (const auto& e : readOnce(reader, d).errors)
            ++(e.message == std::strerror(EISDIR) ? eisdir : eacces);
    EXPECT_EQ(eisdir, 8) << "1, 3, 6, 11, 20, 37, 70, 135";
    EXPECT_EQ(eacces, 8);
    reader.setDropAfter(3);
    auto ds = readOnce(reader, d);
    EXPECT_EQ(ds.files_dropped, 0U);
}
