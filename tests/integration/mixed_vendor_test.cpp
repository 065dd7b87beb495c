// A node with two vendors' NICs (nicd-sim create --vendor mlx5,bnxt), judged by the real nicd
// with both plugins: each vendor's kernel lines raise that vendor's conditions on the right
// device, and each driver's firmware reporter in error is judged as its plugin says. (Provisioning
// of the same node: bnxt_provisioning_test.cpp; its congestion verdicts: congestion_test.cpp,
// MixedCongestionTest.)
#include "node_state.hpp"
#include "support/daemon_fixture.hpp"
#include "support/journal_writer.hpp"

#include <map>
#include <regex>
#include <set>

#include <gtest/gtest.h>

using namespace nicd;
using namespace std::chrono_literals;

namespace {

class MixedVendorNode : public test::DaemonTest {
protected:
    std::string tempTag() const override { return "mixed"; }
    sim::CreateOptions nodeOptions() const override { return {.vendors = "mlx5,bnxt"}; }
    std::string baseConfig() const override
    {
        if (signals_)
            return "[daemon]\nPollIntervalMs=200\n[provision]\nMode=off\n[signals]\n"
                   "IntervalSec=1\nFirmwareResetSec=1\n";
        return "[provision]\nMode=off\n[signals]\nEnable=no\n";
    }
    bool signals_ = false; // the pre-failure signals (devlink health reporters) read, each second

    struct Pf {
        std::string ibdev, netdev, pci;
    };
    // The node's PFs of `vendor` (only the cabled ones unless `cabled_only` is false), by name.
    std::vector<Pf> pfs(const std::string& vendor, bool cabled_only = true) const
    {
        std::vector<Pf> out;
        const auto st = sim::NodeState::load(root_);
        for (const auto& [name, d] : st.devices)
            if (d.vendor == vendor && d.role == "pf" && !d.netdevs.empty() &&
                (!cabled_only ||
                 test::readFile(root_ / d.ib_dir / "ports/1/state").find("ACTIVE") !=
                     std::string::npos))
                out.push_back({name, d.netdevs.front(), d.pci_address});
        return out;
    }
    // "device code severity action" of every active condition whose code starts with `prefix`.
    std::set<std::string> conditions(const std::string& prefix) const
    {
        std::set<std::string> out;
        const auto text = textfileText();
        static const std::regex re(
            R"re(nicd_condition_active\{device="([^"]+)",port="[0-9]+",)re"
            R"re(code="([^"]+)",severity="([a-z]+)",action="([a-z_]+)"\} 1)re");
        for (std::sregex_iterator it(text.begin(), text.end(), re), end; it != end; ++it)
            if ((*it)[2].str().starts_with(prefix))
                out.insert((*it)[1].str() + " " + (*it)[2].str() + " " + (*it)[3].str() + " " +
                           (*it)[4].str());
        return out;
    }
};

} // namespace

TEST_F(MixedVendorNode, BothVendorsAreClaimedByTheirOwnPlugin)
{
    const auto bnxt = pfs("bnxt");
    const auto mlx5 = pfs("mlx5");
    ASSERT_FALSE(bnxt.empty()) << "no cabled bnxt PF in the node";
    ASSERT_FALSE(mlx5.empty());
    once();
    const auto text = textfileText();
    for (const auto& [vendor, list] : {std::pair{"bnxt", bnxt}, std::pair{"mlx5", mlx5}})
        for (const auto& pf : list) {
            const std::regex info("nicd_device_info\\{device=\"" + pf.ibdev + "\",[^}]*plugin=\"" +
                                  vendor + "\"");
            EXPECT_TRUE(std::regex_search(text, info)) << pf.ibdev << "\n" << text;
        }
    EXPECT_NE(text.find("nicd_plugin_up{plugin=\"bnxt\"} 1"), std::string::npos) << text;
    EXPECT_NE(text.find("nicd_plugin_up{plugin=\"mlx5\"} 1"), std::string::npos) << text;
}

TEST_F(MixedVendorNode, EachVendorsKernelLinesRaiseItsOwnConditions)
{
    if (!test::journalRemoteInstalled())
        GTEST_SKIP() << "systemd-journal-remote is not installed: no journal files to write";
    // Kernel lines need no link: the reset line goes to the second bnxt PF (the uncabled one),
    // so that a line counted against the wrong bnxt PF fails.
    const auto bnxt = pfs("bnxt", false);
    const auto mlx5 = pfs("mlx5");
    ASSERT_GE(bnxt.size(), 2U);
    ASSERT_GE(mlx5.size(), 2U);
    uint64_t t = 1700000000000000;
    std::vector<test::JournalEntry> entries{
        // mlx5_core's command timeout (cmd.c wait_func), about the first mlx5 PF.
        test::kernelEntry("mlx5_core " + mlx5[0].pci +
                              ": wait_func:1132:(pid 4242): QUERY_VPORT_COUNTER(0x770) timeout. "
                              "Will cause a leak of a command resource",
                          t += 1000, test::kSimBootId),
        // bnxt_re's firmware channel stall (qplib_rcfw.c bnxt_re_is_fw_stalled), printed through
        // the bnxt_en PCI function.
        test::kernelEntry("bnxt_en " + bnxt[0].pci +
                              ": QPLIB: bnxt_re_is_fw_stalled: FW STALL Detected. cmdq[0xe]=0x3 "
                              "waited (103641 > 100000) msec active 1 ",
                          t += 1000, test::kSimBootId),
        // A firmware reset bnxt_en recovered from (bnxt.c bnxt_fw_reset_task): not fatal.
        test::kernelEntry("bnxt_en " + bnxt[1].pci + " " + bnxt[1].netdev +
                              ": Fatal firmware reset event, data1: 0x20001, data2: 0x0, min "
                              "wait 100 ms, max wait 5000 ms",
                          t += 1000, test::kSimBootId),
        // The same stall text, written by a program to /dev/kmsg about the second mlx5 PF's
        // address: it names no device in journald's trusted fields, so it counts for nothing.
        {.message = "bnxt_en " + mlx5[1].pci +
                    ": QPLIB: bnxt_re_is_fw_stalled: FW STALL Detected. cmdq[0xe]=0x3",
         .boot_id = test::kSimBootId,
         .realtime_usec = t += 1000,
         .syslog_facility = "0"},
    };
    std::string error;
    ASSERT_TRUE(test::writeJournal(root_, "node", entries, error)) << error;
    once();
    const auto found = conditions("kernel.");
    EXPECT_TRUE(found.contains(mlx5[0].ibdev + " kernel.mlx5.cmd_timeout fatal reset_nic"))
        << textfileText();
    EXPECT_TRUE(found.contains(bnxt[0].ibdev + " kernel.bnxt_re.fw_stall fatal reset_nic"))
        << textfileText();
    EXPECT_TRUE(found.contains(bnxt[1].ibdev + " kernel.bnxt.fw_fatal_reset degraded none"))
        << textfileText();
    for (const auto& c : found)
        EXPECT_FALSE(c.starts_with(mlx5[1].ibdev + " ")) << "a forged line counted: " << c;
    EXPECT_EQ(found.size(), 3U) << textfileText();
}

TEST_F(MixedVendorNode, EachVendorsFirmwareReporterIsJudgedAsItsPluginSays)
{
    // fw-fatal puts each driver's firmware reporter in error: mlx5's fw_fatal, bnxt_en's fw (one
    // reporter for every firmware event, in error while the driver resets the firmware). The bnxt
    // plugin says so (plugin ABI 1.6): fatal once it stays in error past a reset
    // (FirmwareResetSec=1 here); mlx5's fw_fatal is fatal at once.
    const auto bnxt = pfs("bnxt");
    const auto mlx5 = pfs("mlx5");
    ASSERT_FALSE(bnxt.empty());
    ASSERT_FALSE(mlx5.empty());
    signals_ = true;
    writeConfig("");
    for (const auto& dev : {bnxt[0].ibdev, mlx5[0].ibdev})
        ASSERT_NO_FATAL_FAILURE(inject("fw-fatal", dev));
    start();
    const std::set<std::string> expected{bnxt[0].ibdev + " firmware_fatal fatal reset_nic",
                                         mlx5[0].ibdev + " firmware_fatal fatal reset_nic"};
    EXPECT_TRUE(test::waitFor([&] { return conditions("firmware_") == expected; }, 20s))
        << log() << textfileText();
    const std::regex in_error(R"(nicd_devlink_reporter_healthy\{device=")" + bnxt[0].ibdev +
                              R"(",handle="pci/)" + bnxt[0].pci + R"(",reporter="fw"\} 0)");
    EXPECT_TRUE(std::regex_search(textfileText(), in_error)) << textfileText();
}

TEST_F(MixedVendorNode, ANicNoPluginClaimsIsStillWatched)
{
    // Only the mlx5 plugin is installed: the bnxt NICs are nobody's. They are still discovered,
    // their links and IB PMA counters published; they get no vendor counters (nor QoS).
    const auto bnxt = pfs("bnxt");
    ASSERT_FALSE(bnxt.empty());
    const auto plugins = dir_ / "plugins";
    std::filesystem::create_directories(plugins);
    std::filesystem::copy_file(NICD_PLUGIN_MLX5_BIN, plugins / "nicd-plugin-mlx5.so");
    std::string out;
    test::run(nicd({"--once"}, plugins.string()), out);
    const auto text = textfileText();
    const std::string dev = "device=\"" + bnxt[0].ibdev + "\"";
    EXPECT_TRUE(
        std::regex_search(text, std::regex("nicd_device_info\\{" + dev + ",[^}]*plugin=\"\"")))
        << out << text;
    EXPECT_NE(text.find("nicd_port_state{" + dev + ",port=\"1\"} 4\n"), std::string::npos) << text;
    EXPECT_NE(text.find("nicd_ib_port_receive_packets_total{" + dev + ","), std::string::npos)
        << "its PMA counters\n"
        << text;
    EXPECT_EQ(text.find("nicd_port_hw_stat_total{" + dev + ","), std::string::npos)
        << "no plugin reads its hw_counters";
    EXPECT_EQ(text.find("nicd_plugin_up{plugin=\"bnxt\"}"), std::string::npos);
    EXPECT_NE(text.find("nicd_plugin_up{plugin=\"mlx5\"} 1"), std::string::npos);
}
