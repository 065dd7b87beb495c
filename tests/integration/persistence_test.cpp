// Across restarts nothing is lost or repeated: two `nicd --once` runs with one state directory
// compute counter deltas between them, kernel errors read from real journal files are counted
// once, a new boot starts from a clean baseline, a corrupt state file is set aside, and a device
// renamed between two runs keeps what was known of it.
#include "sim.hpp"
#include "support/daemon_fixture.hpp"
#include "support/journal_writer.hpp"
#include "support/process.hpp"

#include <nlohmann/json.hpp>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>

#include <gtest/gtest.h>

using namespace nicd;
namespace fs = std::filesystem;

namespace {

class PersistenceTest : public test::DaemonTest {
protected:
    std::string tempTag() const override { return "persist"; }
    std::string baseConfig() const override { return ""; }

    std::string once()
    {
        std::string out;
        int rc = test::run(nicd({"--once"}), out);
        EXPECT_LE(rc, 2) << out; // the node's verdict: it judged
        return out;
    }
    std::string textfile() const { return textfileText(); }
    void journal(const std::string& name, const std::vector<std::string>& messages, uint64_t t0)
    {
        std::vector<test::JournalEntry> entries;
        for (const auto& m : messages)
            entries.push_back(test::kernelEntry(m, t0 += 1000, test::kSimBootId));
        std::string error;
        ASSERT_TRUE(test::writeJournal(root_, name, entries, error)) << error;
    }
};

} // namespace

TEST_F(PersistenceTest, CounterRulesFireBetweenTwoOnceRuns)
{
    once();
    EXPECT_EQ(textfile().find("code=\"counter.symbol_error\""), std::string::npos);
    sim::addToCounter(root_, "mlx5_1", "symbol_error", 500);
    once();
    EXPECT_NE(
        textfile().find(
            "nicd_condition_active{device=\"mlx5_1\",port=\"1\",code=\"counter.symbol_error\","
            "severity=\"degraded\",action=\"replace_cable_or_transceiver\"} 1"),
        std::string::npos);
}

// Rate=N/h is a count within the hour, across --once runs a second apart (the window is in the
// state file): a burst under the budget raises nothing, however fast; more than the budget within
// the hour raises the condition with its action.
TEST_F(PersistenceTest, AnHourlyBudgetHoldsAcrossOnceRunsASecondApart)
{
    once();
    sim::addToCounter(root_, "mlx5_2", "symbol_error", 100);
    sleep(1);
    once();
    EXPECT_EQ(textfile().find("code=\"counter.symbol_error\""), std::string::npos)
        << "100 symbol errors in a second are within 120 an hour";
    sim::addToCounter(root_, "mlx5_2", "symbol_error", 20);
    sleep(1);
    once();
    EXPECT_EQ(textfile().find("code=\"counter.symbol_error\""), std::string::npos)
        << "exactly the budget";
    sim::addToCounter(root_, "mlx5_2", "symbol_error", 1);
    sleep(1);
    auto out = once();
    EXPECT_NE(
        textfile().find(
            "nicd_condition_active{device=\"mlx5_2\",port=\"1\",code=\"counter.symbol_error\","
            "severity=\"degraded\",action=\"replace_cable_or_transceiver\"} 1"),
        std::string::npos)
        << out;
    EXPECT_NE(out.find("symbol_error grew by 121 in"), std::string::npos) << out;
    EXPECT_NE(out.find("-> replace_cable_or_transceiver: "), std::string::npos) << out;
}

TEST_F(PersistenceTest, KernelErrorsFromTheJournalAreCountedOnceAcrossRestarts)
{
    journal("a",
            {"mlx5_core 0000:3b:00.0: wait_func:1132:(pid 1): CREATE_DCT(0x710) timeout. Will "
             "cause a leak of a "
             "command resource",
             "EXT4-fs (nvme0n1p2): re-mounted. Opts: (null)",
             "mlx5_core 0000:77:00.0: poll_health:709:(pid 0): device's health compromised - "
             "reached miss count"},
            1700000000000000);
    auto out = once();
    auto text = textfile();
    EXPECT_NE(text.find("nicd_kernel_errors_total{device=\"mlx5_1\",code=\"mlx5.cmd_timeout\"} 1"),
              std::string::npos)
        << text.substr(0, 3000);
    EXPECT_NE(
        text.find(
            "nicd_condition_active{device=\"mlx5_1\",port=\"0\",code=\"kernel.mlx5.cmd_timeout\","
            "severity=\"fatal\",action=\"reset_nic\"} 1"),
        std::string::npos);
    EXPECT_NE(text.find("nicd_kernel_errors_unmapped_total 1\n"), std::string::npos)
        << "0000:77:00.0 is unknown";
    EXPECT_NE(text.find("nicd_device_health{device=\"mlx5_1\"} 2"), std::string::npos);

    once(); // nothing new: nothing counted twice, the condition holds
    text = textfile();
    EXPECT_NE(text.find("nicd_kernel_errors_total{device=\"mlx5_1\",code=\"mlx5.cmd_timeout\"} 1"),
              std::string::npos);
    EXPECT_NE(text.find("code=\"kernel.mlx5.cmd_timeout\""), std::string::npos);

    journal("b", {"NETDEV WATCHDOG: ens2f0np0 (mlx5_core): transmit queue 3 timed out 5376 ms"},
            1700000100000000);
    once(); // only the new line
    text = textfile();
    EXPECT_NE(text.find("nicd_kernel_errors_total{device=\"mlx5_1\",code=\"mlx5.cmd_timeout\"} 1"),
              std::string::npos);
    EXPECT_NE(
        text.find("nicd_kernel_errors_total{device=\"mlx5_1\",code=\"netdev.tx_watchdog\"} 1"),
        std::string::npos);
}

TEST_F(PersistenceTest, ANewBootStartsFromACleanBaseline)
{
    journal("a",
            {"mlx5_core 0000:3b:00.0: wait_func:1132:(pid 1): CREATE_DCT(0x710) timeout. Will "
             "cause a leak of a "
             "command resource"},
            1700000000000000);
    once();
    ASSERT_NE(textfile().find("kernel.mlx5.cmd_timeout"), std::string::npos);
    std::ofstream(root_ / "proc/sys/kernel/random/boot_id")
        << "11111111-2222-3333-4444-555555555555\n";
    auto out = once();
    EXPECT_EQ(textfile().find("kernel.mlx5.cmd_timeout"), std::string::npos)
        << "the old boot's condition is gone";
    EXPECT_NE(textfile().find("nicd_health_events_total{kind=\"baseline\"} 1"), std::string::npos);
}

TEST_F(PersistenceTest, ACorruptStateFileIsSetAsideNotFatal)
{
    once();
    std::ofstream(root_ / "var/lib/nicd/state.json") << "{ this is not json";
    std::string out;
    int rc = test::run(nicd({"--once"}), out);
    EXPECT_EQ(rc, 0) << out;
    EXPECT_NE(out.find("is unusable"), std::string::npos) << out;
    bool aside = false;
    for (const auto& e : fs::directory_iterator(root_ / "var/lib/nicd"))
        aside = aside || e.path().filename().string().starts_with("state.json.corrupt-");
    EXPECT_TRUE(aside);
    auto state =
        nlohmann::json::parse(test::readFile(root_ / "var/lib/nicd/state.json"), nullptr, false);
    EXPECT_FALSE(state.is_discarded()) << "a fresh state file was written";
}

// A FIFO in the state file's place (nothing ever writes it) is no state: nicd --once does not
// wait on it, sets it aside and carries on.
TEST_F(PersistenceTest, AFifoInTheStateFilesPlaceIsSetAsideNotWaitedOn)
{
    once();
    const auto state = root_ / "var/lib/nicd/state.json";
    fs::remove(state);
    ASSERT_EQ(::mkfifo(state.c_str(), 0600), 0);
    std::string out;
    int rc = test::run(nicd({"--once"}), out, std::chrono::seconds(30));
    EXPECT_GE(rc, 0) << "nicd --once hung on the FIFO\n" << out;
    EXPECT_LE(rc, 2) << out;
    EXPECT_NE(out.find("is unusable (" + state.string() + ": not a regular file)"),
              std::string::npos)
        << out;
    EXPECT_TRUE(fs::is_regular_file(fs::symlink_status(state))) << "a fresh state file";
}

TEST_F(PersistenceTest, ADeviceMissingAfterARestartIsCaught)
{
    once();
    sim::remove(root_, "mlx5_3");
    once();
    EXPECT_NE(textfile().find(
                  "nicd_condition_active{device=\"mlx5_3\",port=\"0\",code=\"device_missing\","
                  "severity=\"fatal\",action=\"reboot_node\"} 1"),
              std::string::npos);
    EXPECT_NE(textfile().find("nicd_device_health{device=\"mlx5_3\"} 2"), std::string::npos);
    sim::restore(root_, "mlx5_3");
    once();
    EXPECT_EQ(textfile().find("code=\"device_missing\""), std::string::npos);
}

// udev's rdma_rename between two runs (mlx5_1 -> rocep59s0f0): the device is its PCI address,
// so its kernel error, its counter baseline (500 symbol errors since run 1 are an alarm, not a
// new baseline) and its history carry over to the new name, with one renamed event, and nothing
// is missing.
TEST_F(PersistenceTest, ARenameBetweenTwoRunsCarriesConditionsAndBaselines)
{
    journal("a",
            {"mlx5_core 0000:3b:00.0: wait_func:1132:(pid 1): CREATE_DCT(0x710) timeout. Will "
             "cause a leak of a command resource"},
            1700000000000000);
    once();
    ASSERT_NE(textfile().find("code=\"kernel.mlx5.cmd_timeout\""), std::string::npos);
    sim::addToCounter(root_, "mlx5_1", "symbol_error", 500);
    sim::rename(root_, "mlx5_1", "rocep59s0f0");
    auto out = once();
    auto text = textfile();
    EXPECT_NE(text.find("nicd_condition_active{device=\"rocep59s0f0\",port=\"0\",code=\"kernel."
                        "mlx5.cmd_timeout\",severity=\"fatal\",action=\"reset_nic\"} 1"),
              std::string::npos)
        << text.substr(0, 3000);
    EXPECT_NE(text.find("nicd_condition_active{device=\"rocep59s0f0\",port=\"1\",code=\"counter."
                        "symbol_error\""),
              std::string::npos)
        << out;
    EXPECT_NE(
        text.find("nicd_kernel_errors_total{device=\"rocep59s0f0\",code=\"mlx5.cmd_timeout\"} 1"),
        std::string::npos);
    EXPECT_NE(text.find("nicd_health_events_total{kind=\"renamed\"} 1"), std::string::npos);
    EXPECT_EQ(text.find("device_missing"), std::string::npos) << text.substr(0, 3000);
    EXPECT_EQ(text.find("\"mlx5_1\""), std::string::npos) << "the old name is gone";
    EXPECT_NE(out.find("mlx5_1 (PCI 0000:3b:00.0) is now rocep59s0f0"), std::string::npos) << out;
}
