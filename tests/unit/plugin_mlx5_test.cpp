// The built mlx5 plugin, loaded by the daemon's plugin manager against a simulated node: it
// claims the mlx5_core devices, and each poll returns every hw_counters file of every port and
// the ethtool statistics of each port's netdevs, with the values the node holds now; a file the
// firmware refuses is dropped (and said to the daemon) until a reload.
#include "inventory/sysfs_inventory.hpp"
#include "plugins/plugin_manager.hpp"
#include "sim.hpp"
#include "support/log_capture.hpp"
#include "support/refused_files.hpp"
#include "support/temp_dir.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <gtest/gtest.h>

using namespace nicd;
namespace fs = std::filesystem;

namespace {

class Mlx5Plugin : public test::TempDirTest {
protected:
    void SetUp() override
    {
        TempDirTest::SetUp();
        root_ = dir_ / "root";
        sim::create(root_, {});
        manager_ = std::make_unique<plugins::PluginManager>(HostPaths(root_), Config{});
        manager_->loadDirectory(NICD_BUILD_PLUGIN_DIR);
        inventory_ = inventory::discoverInventory(HostPaths(root_));
        manager_->assign(inventory_);
    }
    void TearDown() override
    {
        manager_.reset();
        TempDirTest::TearDown();
    }
    DeviceSamples poll(const std::string& ibdev)
    {
        DeviceSamples ds;
        manager_->poll(*inventory_.find(ibdev), ds);
        return ds;
    }
    // (source, port, netdev, name) -> sample
    static std::map<std::string, Sample> index(const DeviceSamples& ds)
    {
        std::map<std::string, Sample> m;
        for (const auto& s : toSamples(ds))
            m[s.source + "/" + std::to_string(s.port) + "/" + s.netdev + "/" + s.name] = s;
        return m;
    }
    // A reload as the daemon makes one: the new settings, then the next cycle's assignment.
    void reloaded(const Config& config)
    {
        manager_->configure(config);
        inventory_ = inventory::discoverInventory(HostPaths(root_));
        manager_->assign(inventory_);
    }
    uint64_t fileValue(const fs::path& p)
    {
        std::ifstream in(p);
        uint64_t v = 0;
        in >> v;
        return v;
    }

    fs::path root_;
    std::unique_ptr<plugins::PluginManager> manager_;
    Inventory inventory_;
};

} // namespace

TEST_F(Mlx5Plugin, ClaimsEveryMlx5CoreDevice)
{
    auto all = manager_->statuses(); // mlx5's and the other vendors' built beside it
    auto st = std::find_if(all.begin(), all.end(), [](const auto& s) { return s.name == "mlx5"; });
    ASSERT_NE(st, all.end());
    ASSERT_EQ(st->state, PluginState::Running) << st->last_error;
    uint32_t mlx5 = 0;
    for (const auto& d : inventory_.devices) {
        EXPECT_EQ(d.plugin, d.driver == "mlx5_core" ? "mlx5" : "") << d.ibdev;
        mlx5 += d.driver == "mlx5_core" ? 1 : 0;
    }
    EXPECT_GT(mlx5, 0U);
    EXPECT_EQ(st->devices, mlx5);
}

TEST_F(Mlx5Plugin, PollReturnsHwCountersAndEthtoolStatisticsOfTheNode)
{
    const Device& dev = *inventory_.find("mlx5_0");
    ASSERT_FALSE(dev.ports.empty());
    const Port& port = dev.ports[0];
    ASSERT_FALSE(port.netdevs.empty());
    const std::string netdev = port.netdevs[0];

    auto ds = poll("mlx5_0");
    EXPECT_TRUE(ds.errors.empty()) << ds.errors[0].what << ": " << ds.errors[0].message;
    auto m = index(ds);

    // Every hw_counters file of the port, with the file's value; lifespan is a gauge.
    const fs::path hw =
        fs::path(dev.sysfs_path) / "ports" / std::to_string(port.num) / "hw_counters";
    size_t files = 0;
    for (const auto& e : fs::directory_iterator(hw)) {
        ++files;
        auto key = "hw_counters/" + std::to_string(port.num) + "//" + e.path().filename().string();
        ASSERT_TRUE(m.contains(key)) << key;
        EXPECT_EQ(m[key].value, fileValue(e.path())) << key;
        EXPECT_EQ(m[key].kind,
                  e.path().filename() == "lifespan" ? SampleKind::Gauge : SampleKind::Counter);
    }
    EXPECT_GT(files, 5U);

    // The netdev's statistics, as the simulator's `ethtool -S` file says.
    std::ifstream in(root_ / "run/nicd-sim/ethtool" / netdev);
    std::string line;
    size_t stats = 0;
    while (std::getline(in, line)) {
        auto colon = line.rfind(':');
        if (colon == std::string::npos || line.starts_with("NIC statistics"))
            continue;
        auto name = line.substr(line.find_first_not_of(' '));
        name = name.substr(0, name.rfind(':'));
        auto key = "ethtool/" + std::to_string(port.num) + "/" + netdev + "/" + name;
        ASSERT_TRUE(m.contains(key)) << key;
        EXPECT_EQ(m[key].value, std::stoull(line.substr(colon + 1))) << key;
        ++stats;
    }
    EXPECT_GT(stats, 5U);
}

TEST_F(Mlx5Plugin, UnderRootTheKernelIsNeverAskedForCounters)
{
    test::LogCapture log;
    for (const auto& d : inventory_.devices) {
        if (d.plugin == "mlx5") {
            EXPECT_TRUE(poll(d.ibdev).errors.empty()) << d.ibdev;
        }
    }
    EXPECT_EQ(log.count("RDMA netlink"), 0U) << log.text();
}

TEST_F(Mlx5Plugin, ValuesFollowTheNode)
{
    const Device& dev = *inventory_.find("mlx5_0");
    const std::string netdev = dev.ports.at(0).netdevs.at(0);
    auto before = index(poll("mlx5_0"));
    sim::addToCounter(root_, "mlx5_0", "out_of_buffer", 7);
    sim::addToCounter(root_, "mlx5_0", "rx_discards_phy", 11);
    auto after = index(poll("mlx5_0"));
    auto hw = "hw_counters/1//out_of_buffer";
    auto eth = "ethtool/1/" + netdev + "/rx_discards_phy";
    ASSERT_TRUE(before.contains(hw) && after.contains(hw));
    ASSERT_TRUE(before.contains(eth) && after.contains(eth));
    EXPECT_EQ(after[hw].value - before[hw].value, 7U);
    EXPECT_EQ(after[eth].value - before[eth].value, 11U);
}

TEST_F(Mlx5Plugin, AnUnreadableCounterFileFailsOnlyItself)
{
    const Device& dev = *inventory_.find("mlx5_0");
    const fs::path hw = fs::path(dev.sysfs_path) / "ports/1/hw_counters";
    fs::remove(hw / "out_of_buffer");
    fs::create_directory(hw / "out_of_buffer"); // read() fails with EISDIR
    for (int cycle = 0; cycle < 6; ++cycle) {
        auto ds = poll("mlx5_0");
        auto m = index(ds);
        EXPECT_TRUE(m.contains("hw_counters/1//rx_write_requests")) << "cycle " << cycle;
        EXPECT_FALSE(m.contains("hw_counters/1//out_of_buffer"));
        if (cycle == 0) {
            ASSERT_EQ(ds.errors.size(), 1U);
            EXPECT_NE(ds.errors[0].message.find("hw_counters/out_of_buffer: Is a directory"),
                      std::string::npos)
                << ds.errors[0].message;
        }
    }
    EXPECT_EQ(manager_->statuses().at(0).state, PluginState::Running)
        << "one bad file must not degrade the plugin";
}

// A hw_counters file refused three reads in a row (EACCES here) is dropped: said once, reported
// to the daemon as a device-wide gauge (nicd/dropped_files), never tried again. A reload hands
// the plugin the daemon's DropCounterAfter= and attaches every device again: the file is read
// again, and with DropCounterAfter=1 one refusal drops it.
TEST_F(Mlx5Plugin, ARefusedCounterFileIsDroppedUntilAReload)
{
    const fs::path file =
        fs::path(inventory_.find("mlx5_0")->sysfs_path) / "ports/1/hw_counters/out_of_buffer";
    test::refuseReads(file);
    test::NoDacOverride refused;
    test::LogCapture log;
    std::vector<int> failed;
    DeviceSamples ds;
    for (int cycle = 1; cycle <= 20; ++cycle) {
        ds = poll("mlx5_0");
        if (!ds.errors.empty())
            failed.push_back(cycle);
    }
    EXPECT_EQ(failed, (std::vector<int>{1, 3, 6}));
    auto m = index(ds);
    ASSERT_TRUE(m.contains("nicd/0//dropped_files")) << "told to the daemon";
    EXPECT_EQ(m.at("nicd/0//dropped_files").value, 1U);
    EXPECT_EQ(m.at("nicd/0//dropped_files").kind, SampleKind::Gauge);
    EXPECT_TRUE(m.contains("hw_counters/1//rx_write_requests"));
    const std::string said = "refused 3 reads in a row; dropped, not read again until nicd is "
                             "reloaded or the node reboots";
    EXPECT_NE(log.text().find(file.string() + ": Permission denied: " + said), std::string::npos)
        << log.text();
    EXPECT_EQ(log.text().find(said), log.text().rfind(said)) << "said once";

    Config reload;
    reload.daemon.drop_counter_after = 1;
    reloaded(reload);
    ds = poll("mlx5_0");
    EXPECT_EQ(ds.errors.size(), 1U) << "read again after the reload";
    EXPECT_EQ(index(ds).at("nicd/0//dropped_files").value, 1U) << "dropped at once";

    fs::permissions(file, fs::perms::owner_read | fs::perms::owner_write);
    reloaded(Config{});
    m = index(poll("mlx5_0"));
    EXPECT_TRUE(m.contains("hw_counters/1//out_of_buffer"));
    EXPECT_FALSE(m.contains("nicd/0//dropped_files"));
}

TEST(Mlx5PluginOnARealRoot, ADeviceTheKernelCannotGiveCountersForIsReadFromItsFiles)
{
    // nicd on "/": the plugin asks RDMA netlink first. This machine's kernel has no RDMA netlink,
    // or no device of this name: either way the device's hw_counters/ files, as they hold.
    const fs::path root = test::makeTempDir("real-root") / "node";
    sim::create(root, {});
    const Inventory sim_inventory = inventory::discoverInventory(HostPaths(root));
    Device dev = *sim_inventory.find("mlx5_0");
    dev.ibdev = "nicd_absent0";
    for (auto& port : dev.ports)
        port.netdevs.clear(); // no ethtool ioctl on this machine's netdevs
    Inventory inventory;
    inventory.devices.push_back(dev);
    plugins::PluginManager manager(HostPaths("/"), Config{});
    manager.loadDirectory(NICD_BUILD_PLUGIN_DIR);
    manager.assign(inventory);
    ASSERT_EQ(inventory.devices[0].plugin, "mlx5");

    test::LogCapture log;
    for (int poll = 0; poll < 2; ++poll) {
        DeviceSamples ds;
        manager.poll(inventory.devices[0], ds);
        EXPECT_TRUE(ds.errors.empty()) << ds.errors[0].what << ": " << ds.errors[0].message;
        size_t files = 0;
        for (const auto& s : toSamples(ds)) {
            const fs::path file = fs::path(dev.sysfs_path) / "ports" / std::to_string(s.port) /
                                  "hw_counters" / s.name;
            ASSERT_TRUE(fs::exists(file)) << s.name;
            std::ifstream in(file);
            uint64_t value = 0;
            in >> value;
            EXPECT_EQ(s.value, value) << file;
            ++files;
        }
        EXPECT_GT(files, 5U);
    }
    EXPECT_EQ(log.count("nicd_absent0: hw_counters read from the files until the device is "
                        "attached again: RDMA netlink"),
              1U)
        << "said once, with why: " << log.text();
    fs::remove_all(root.parent_path());
}

// The plugin says what its series mean (ABI 1.5), so the daemon's rules judge them: on the
// simulated ConnectX-7, each meaning the rules read is there, the per-priority ones with their
// priority (the netdev, as mlx5e does, prints the PFC statistics of its PFC priority, 3, and the
// discards of every priority), and the congestion counters are 64 bits wide.
TEST_F(Mlx5Plugin, SaysWhatTheSeriesTheRulesReadMean)
{
    auto ds = poll("mlx5_0");
    ASSERT_TRUE(ds.meanings);
    std::map<Meaning, std::set<uint8_t>> priorities;
    std::map<std::string, SeriesMeaning> by_name;
    for (const auto& s : ds.samples()) {
        if (s.meaning != Meaning::None)
            priorities[s.meaning].insert(s.priority);
        by_name[s.name] = {s.meaning, s.priority, s.wide};
    }
    const std::set<uint8_t> none{plugin::v1::kNoPriority};
    const std::set<uint8_t> pfc{3};
    const std::set<uint8_t> all{0, 1, 2, 3, 4, 5, 6, 7};
    for (auto m :
         {Meaning::LocalAckTimeout, Meaning::OutOfBuffer, Meaning::OutOfSequence,
          Meaning::SequenceErrorNak, Meaning::RnrRetryExceeded, Meaning::EcnMarked,
          Meaning::CnpSent, Meaning::CnpHandled, Meaning::FecCorrectedBits, Meaning::RxCrcErrors,
          Meaning::RxDiscards, Meaning::TxDiscards, Meaning::LinkDownEvents})
        EXPECT_EQ(priorities[m], none) << static_cast<int>(m);
    for (auto m : {Meaning::RxPauseFrames, Meaning::TxPauseFrames, Meaning::RxPauseDuration,
                   Meaning::TxPauseDuration, Meaning::RxPauseTransitions})
        EXPECT_EQ(priorities[m], pfc) << static_cast<int>(m);
    EXPECT_EQ(priorities[Meaning::RxPriorityDrops], all);
    EXPECT_EQ(by_name.at("tx_prio3_pause_duration").meaning, Meaning::TxPauseDuration);
    EXPECT_TRUE(by_name.at("np_cnp_sent").wide);
    EXPECT_FALSE(by_name.at("out_of_buffer").wide) << "a Q counter: 32 bits, wraps";
    EXPECT_EQ(by_name.at("rx_packets").meaning, Meaning::None);
    EXPECT_EQ(poll("mlx5_0").meanings, ds.meanings) << "asked once per layout";
}
