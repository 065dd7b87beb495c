// The built bnxt plugin, loaded by the daemon's plugin manager beside mlx5's against a simulated
// root holding one bnxt_en function: it claims that device (and no mlx5_core one), polls
// bnxt_re's port hw_counters (its levels as gauges) and the netdev's ethtool statistics, and
// recognises bnxt's kernel lines and soft lockups.
#include "plugins/plugin_manager.hpp"
#include "support/bnxt_counter_files.hpp"
#include "support/kernel_records.hpp"
#include "support/temp_dir.hpp"

#include <fstream>
#include <map>

#include <gtest/gtest.h>

using namespace nicd;
namespace fs = std::filesystem;

namespace {

class BnxtPlugin : public test::TempDirTest {
protected:
    BnxtPlugin() : TempDirTest("bnxt-plugin") {}

    void SetUp() override
    {
        TempDirTest::SetUp();
        const fs::path ib = test::writeBnxtCounterFiles(
            dir_, {{"active_qps", "5"}, {"local_ack_timeout_err", "2"}, {"np_cnp_pkts", "30"}},
            "     rx_pfc_ena_frames_pri3: 11\n");

        Device bnxt;
        bnxt.ibdev = "bnxt_re0";
        bnxt.sysfs_path = ib.string();
        bnxt.pci_address = "0000:41:00.0";
        bnxt.driver = "bnxt_en";
        Port port;
        port.num = 1;
        port.link_layer = "Ethernet";
        port.netdevs = {"ens2f0np0"};
        bnxt.ports.push_back(port);
        Device mlx5 = bnxt;
        mlx5.ibdev = "mlx5_0";
        mlx5.driver = "mlx5_core";
        mlx5.pci_address = "0000:3b:00.0";
        inventory_.devices = {bnxt, mlx5}; // sorted by name

        manager_ = std::make_unique<plugins::PluginManager>(HostPaths(dir_), Config{});
        manager_->loadDirectory(NICD_BUILD_PLUGIN_DIR);
        manager_->assign(inventory_);
    }
    void TearDown() override
    {
        manager_.reset();
        TempDirTest::TearDown();
    }

    Inventory inventory_;
    std::unique_ptr<plugins::PluginManager> manager_;
};

} // namespace

TEST_F(BnxtPlugin, ClaimsTheBnxtEnFunctionOnly)
{
    const auto statuses = manager_->statuses(); // a copy: the pointer below points into it
    const PluginStatus* bnxt = nullptr;
    for (const auto& st : statuses)
        if (st.name == "bnxt")
            bnxt = &st;
    ASSERT_NE(bnxt, nullptr) << "nicd-plugin-bnxt.so is built beside mlx5's";
    ASSERT_EQ(bnxt->state, PluginState::Running) << bnxt->last_error;
    EXPECT_EQ(bnxt->devices, 1U);
    EXPECT_EQ(inventory_.find("bnxt_re0")->plugin, "bnxt");
    EXPECT_EQ(inventory_.find("mlx5_0")->plugin, "mlx5");
}

TEST_F(BnxtPlugin, PollsHwCountersAndEthtoolStatistics)
{
    DeviceSamples ds;
    manager_->poll(*inventory_.find("bnxt_re0"), ds);
    EXPECT_TRUE(ds.errors.empty()) << ds.errors[0].message;
    std::map<std::string, Sample> by;
    for (const auto& s : toSamples(ds))
        by[s.source + "/" + s.name] = s;
    ASSERT_TRUE(by.contains("hw_counters/active_qps"));
    EXPECT_EQ(by["hw_counters/active_qps"].kind, plugin::v1::SampleKind::Gauge);
    EXPECT_EQ(by["hw_counters/local_ack_timeout_err"].kind, plugin::v1::SampleKind::Counter);
    EXPECT_EQ(by["hw_counters/np_cnp_pkts"].value, 30U);
    EXPECT_EQ(by["ethtool/rx_pfc_ena_frames_pri3"].value, 11U);
    EXPECT_EQ(by["ethtool/rx_pfc_ena_frames_pri3"].netdev, "ens2f0np0");
    // What the rules read: the loaded plugin's describeLayout, not only the table under it.
    ASSERT_TRUE(ds.meanings);
    std::map<std::string, SeriesMeaning> meant;
    for (const auto& s : ds.samples())
        meant[s.source + "/" + s.name] = {s.meaning, s.priority, s.wide};
    EXPECT_EQ(meant["hw_counters/local_ack_timeout_err"].meaning, Meaning::LocalAckTimeout);
    EXPECT_EQ(meant["ethtool/rx_pfc_ena_frames_pri3"].meaning, Meaning::RxPauseFrames);
    EXPECT_EQ(meant["ethtool/rx_pfc_ena_frames_pri3"].priority, 3);
    EXPECT_EQ(meant["hw_counters/active_qps"].meaning, Meaning::None);
}

TEST_F(BnxtPlugin, RecognisesBnxtKernelLinesAndLockups)
{
    plugin::v1::KernelLineMatch m;
    ASSERT_TRUE(manager_->classifyKernelRecord(
        test::logged("bnxt_en 0000:41:00.0 ens2f0np0: TX timeout detected, starting reset task!")
            .record(),
        m));
    EXPECT_EQ(m.code, "bnxt.tx_timeout");
    EXPECT_EQ(m.pci_address, "0000:41:00.0");

    const std::vector<std::string> lines{" bnxt_poll_p5+0x9a/0x1c0 [bnxt_en]"};
    const plugin::v1::KernelReport report{"soft_lockup", "BUG: soft lockup - CPU#3 stuck for 23s!",
                                          lines};
    std::string plugin;
    ASSERT_TRUE(manager_->classifyKernelReport(report, plugin, m));
    EXPECT_EQ(plugin, "bnxt");
    EXPECT_EQ(m.code, "driver_soft_lockup");
}
