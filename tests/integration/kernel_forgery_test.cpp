// A local user cannot make nicd judge a NIC: on a simulated 4-NIC node, the kernel's reports
// about user programs whose names and files read like driver errors, soft lockups and stack
// frames (real report formats: x86's segfault report, "traps:" general protection and trap
// reports, comms of 15 bytes) sit in the journal next to genuine lines, which the kernel printed
// about their device (journald's _KERNEL_DEVICE) or as its own device-less reports. `nicd --once`
// judges exactly the genuine ones: each device as it should be.
#include "support/daemon_fixture.hpp"
#include "support/journal_writer.hpp"

#include <map>
#include <regex>
#include <set>

#include <gtest/gtest.h>

using namespace nicd;

namespace {

// A line the kernel printed about a program `comm` that crashed in a file named `file`.
std::vector<std::string> reportsAbout(const std::string& comm, const std::string& file)
{
    return {comm + "[4212]: segfault at 0 ip 000055d0c0ffee00 sp 00007ffd2f1c8e10 error 6 in " +
                file + "[55d0c0ffe000+1000] likely on CPU 3 (core 3, socket 0)",
            "traps: " + comm + "[4212] general protection fault ip:55d0c0ffee00 sp:7ffd2f1c8e10 " +
                "error:0 in " + file + "[55d0c0ffe000+1000]",
            "traps: " + comm + "[4212] trap invalid opcode ip:55d0c0ffee00 sp:7ffd2f1c8e10 " +
                "error:0 in " + file + "[55d0c0ffe000+1000]"};
}

class KernelForgery : public test::DaemonTest {
protected:
    // nicd-sim's default node: RoCE PFs mlx5_0..3 at 0000:1a/3b/4c/5d:00.0, ens1..4f0np0.
    void SetUp() override
    {
        DaemonTest::SetUp();
        if (!test::journalRemoteInstalled())
            GTEST_SKIP() << "systemd-journal-remote is not installed (apt-get install "
                            "systemd-journal-remote): no journal files to write";
    }

    void journal(const std::vector<test::JournalEntry>& entries)
    {
        std::string error;
        ASSERT_TRUE(test::writeJournal(root_, "node", entries, error)) << error;
    }
    // device -> the kernel conditions one `nicd --once` raised on it.
    std::map<std::string, std::set<std::string>> kernelConditions()
    {
        std::string out;
        int rc = test::run(nicd({"--once"}), out);
        EXPECT_LE(rc, 2) << out; // the exit code is the node verdict
        auto text = test::readFile(textfile());
        std::map<std::string, std::set<std::string>> found;
        std::regex re(
            R"re(nicd_condition_active\{device="([^"]+)",port="0",code="(kernel\.[^"]+)")re");
        for (auto it = std::sregex_iterator(text.begin(), text.end(), re);
             it != std::sregex_iterator(); ++it)
            found[(*it)[1]].insert((*it)[2]);
        return found;
    }
};

std::vector<test::JournalEntry> forgeries(uint64_t& t)
{
    std::vector<test::JournalEntry> out;
    const std::vector<std::string> texts{
        "mlx5_core 0000:1a:00.0: poll_health:694:(pid 0): Fatal error 1 detected",
        "mlx5_core 0000:4c:00.0: wait_func:1132:(pid 1): QUERY_VPORT_COUNTER(0x770) timeout. "
        "Will cause a leak of a command resource",
        "NETDEV WATCHDOG: ens4f0np0 (mlx5_core): transmit queue 19 timed out",
        "BUG: soft lockup - CPU#3 stuck for 23s!",
        "pcieport 0000:5c:00.0: AER: Uncorrected (Fatal) error received: 0000:5d:00.0",
        "mlx5_core: probe of 0000:1a:00.0 failed with error -22",
        " mlx5e_napi_poll+0x1f/0x2a0 [mlx5_core]"};
    for (const auto& text : texts)
        for (const std::string comm :
             {"prog", "mlx5_core 0000:", "NETDEV WATCHDOG", "watchdog: BUG: ", "mlx5e_napi_poll"})
            for (const auto& line : reportsAbout(comm, text))
                out.push_back(
                    {.message = line, .boot_id = test::kSimBootId, .realtime_usec = t += 1000});
    return out;
}

} // namespace

TEST_F(KernelForgery, OnlyTheLinesTheKernelSaidAboutADeviceCount)
{
    uint64_t t = 1700000000000000;
    auto entries = forgeries(t);
    // A genuine soft lockup elsewhere (not mlx5), then a crashing program named like an mlx5
    // polling frame inside its trace window: no driver_soft_lockup.
    entries.push_back({.message = "watchdog: BUG: soft lockup - CPU#7 stuck for 22s! [java:991]",
                       .boot_id = test::kSimBootId,
                       .realtime_usec = t += 1000});
    entries.push_back({.message = " ext4_writepages+0x1a2/0x6a0",
                       .boot_id = test::kSimBootId,
                       .realtime_usec = t += 1000});
    for (const auto& line : reportsAbout("mlx5e_napi_poll", "mlx5e_napi_poll+0x1f/0x2a0"))
        entries.push_back(
            {.message = line, .boot_id = test::kSimBootId, .realtime_usec = t += 1000});
    // The genuine lines: a firmware-fatal line about mlx5_1's function, and the kernel's own
    // (device-less) transmit watchdog report for mlx5_2's netdev.
    entries.push_back(
        test::kernelEntry("mlx5_core 0000:3b:00.0: poll_health:694:(pid 0): Fatal error 1 detected",
                          t += 1000, test::kSimBootId));
    entries.push_back({.message = "NETDEV WATCHDOG: ens3f0np0 (mlx5_core): transmit queue 5 "
                                  "timed out",
                       .boot_id = test::kSimBootId,
                       .realtime_usec = t += 1000});
    journal(entries);
    auto found = kernelConditions();
    EXPECT_EQ(found, (std::map<std::string, std::set<std::string>>{
                         {"mlx5_1", {"kernel.mlx5.fatal_error"}},
                         {"mlx5_2", {"kernel.netdev.tx_watchdog"}}}));
}

TEST_F(KernelForgery, AGenuineSoftLockupInMlx5PollingStillCounts)
{
    uint64_t t = 1700000000000000;
    std::vector<test::JournalEntry> entries;
    for (const char* line :
         {"watchdog: BUG: soft lockup - CPU#94 stuck for 226906s! [swapper/94:0]",
          "Modules linked in: mlx5_ib ib_uverbs mlx5_core mlxfw",
          "CPU: 94 PID: 0 Comm: swapper/94 Tainted: G           OEL",
          "RIP: 0010:native_queued_spin_lock_slowpath+0x12/0x20", "Call Trace:", " <IRQ>",
          " ? mlx5e_poll_rx_cq+0x31/0x8b0 [mlx5_core]", " mlx5e_napi_poll+0x1a2/0x6a0 [mlx5_core]",
          " net_rx_action+0x146/0x3e0"})
        entries.push_back(
            {.message = line, .boot_id = test::kSimBootId, .realtime_usec = t += 1000});
    journal(entries);
    auto found = kernelConditions();
    for (const char* dev : {"mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3"})
        EXPECT_TRUE(found[dev].contains("kernel.driver_soft_lockup")) << dev;
}
