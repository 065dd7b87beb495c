// Kernel lines read from real journal files written by systemd-journal-remote: only the kernel
// transport, only the current boot on first start, and nothing read twice or missed across a
// restart (the cursor).
#include "kernel_log/kernel_journal.hpp"
#include "support/journal_writer.hpp"
#include "support/temp_dir.hpp"

#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

using namespace nicd;
using nicd::test::JournalEntry;

namespace {

const std::string kBoot = "11111111111111111111111111111111";
const std::string kOldBoot = "22222222222222222222222222222222";

class KernelJournalTest : public ::testing::Test {
protected:
    void SetUp() override { root_ = nicd::test::makeTempDir("journal"); }
    void TearDown() override { std::filesystem::remove_all(root_); }

    void write(const std::string& name, const std::vector<JournalEntry>& entries)
    {
        std::string error;
        ASSERT_TRUE(nicd::test::writeJournal(root_, name, entries, error)) << error;
    }

    static std::vector<std::string> readAll(kernel_log::KernelJournal& j)
    {
        std::vector<std::string> lines;
        j.read([&](const kernel_log::KernelLine& l) { lines.emplace_back(l.message); });
        return lines;
    }

    std::filesystem::path root_;
};

} // namespace

TEST_F(KernelJournalTest, FirstStartReadsKernelLinesOfTheCurrentBootOnly)
{
    write("a", {
                   {.message = "old boot line", .boot_id = kOldBoot},
                   {.message = "mlx5_core 0000:3b:00.0: first"},
                   {.message = "a userspace line", .transport = "stdout"},
                   {.message = "mlx5_core 0000:3b:00.0: second"},
               });
    kernel_log::KernelJournal j(root_, kBoot, std::nullopt);
    EXPECT_EQ(readAll(j), (std::vector<std::string>{"mlx5_core 0000:3b:00.0: first",
                                                    "mlx5_core 0000:3b:00.0: second"}));
    EXPECT_TRUE(j.cursor());
}

TEST_F(KernelJournalTest, RestartWithCursorReadsOnlyWhatIsNew)
{
    write("a", {{.message = "one"}, {.message = "two", .realtime_usec = 1700000000500000}});
    std::optional<std::string> cursor;
    {
        kernel_log::KernelJournal j(root_, kBoot, std::nullopt);
        EXPECT_EQ(readAll(j).size(), 2U);
        cursor = j.cursor();
    }
    ASSERT_TRUE(cursor);
    write("b", {{.message = "three", .realtime_usec = 1700000001000000},
                {.message = "four", .realtime_usec = 1700000002000000}});
    kernel_log::KernelJournal again(root_, kBoot, cursor);
    EXPECT_EQ(readAll(again), (std::vector<std::string>{"three", "four"}));
    // Nothing more, and a third start from the new cursor reads nothing.
    EXPECT_TRUE(readAll(again).empty());
    kernel_log::KernelJournal third(root_, kBoot, again.cursor());
    EXPECT_TRUE(readAll(third).empty());
}

// journald vacuumed the file holding the entry nicd read last: nicd resumes at the oldest entry
// after it — not at the start of the boot, which it judged already — and says so.
TEST_F(KernelJournalTest, ACursorWhoseEntryWasVacuumedResumesAfterItsTime)
{
    write("old", {{.message = "zero", .realtime_usec = 1700000000000000}});
    write("a", {{.message = "one", .realtime_usec = 1700000001000000},
                {.message = "two", .realtime_usec = 1700000002000000}});
    std::optional<std::string> cursor;
    {
        kernel_log::KernelJournal j(root_, kBoot, std::nullopt);
        EXPECT_EQ(readAll(j), (std::vector<std::string>{"zero", "one", "two"}));
        cursor = j.cursor();
    }
    ASSERT_TRUE(cursor);
    write("b", {{.message = "three", .realtime_usec = 1700000003000000},
                {.message = "four", .realtime_usec = 1700000004000000}});
    auto dir = root_ / "var/log/journal" / nicd::test::kTestMachineId;
    ASSERT_TRUE(std::filesystem::remove(dir / "a.journal")) << "the vacuum";

    std::ostringstream logged;
    auto previous = spdlog::default_logger();
    auto capture = std::make_shared<spdlog::logger>(
        "capture", std::make_shared<spdlog::sinks::ostream_sink_st>(logged));
    spdlog::set_default_logger(capture);
    kernel_log::KernelJournal again(root_, kBoot, cursor);
    spdlog::set_default_logger(previous);
    EXPECT_EQ(readAll(again), (std::vector<std::string>{"three", "four"}))
        << "zero was judged before the restart and is not read again";
    EXPECT_NE(logged.str().find("no longer holds the entry nicd read last"), std::string::npos)
        << logged.str();
    EXPECT_NE(logged.str().find("1700000003"), std::string::npos) << "from when it resumes";
}

// Each line comes with journald's record of the device the kernel printed it about; what a
// program wrote to /dev/kmsg (root may: it has a facility of its own) is not the kernel's.
TEST_F(KernelJournalTest, LinesComeWithTheirTrustedOriginAndOnlyTheKernelsCount)
{
    write("a", {{.message = "mlx5_core 0000:3b:00.0: Fatal error 1 detected",
                 .kernel_device = "+pci:0000:3b:00.0",
                 .kernel_subsystem = "pci"},
                {.message = "mlx5_core 0000:3b:00.0: Fatal error 1 detected",
                 .realtime_usec = 1700000000100000,
                 .syslog_facility = "1"},
                {.message = "NETDEV WATCHDOG: eth1 (mlx5_core): transmit queue 1 timed out",
                 .realtime_usec = 1700000000200000}});
    kernel_log::KernelJournal j(root_, kBoot, std::nullopt);
    std::vector<std::tuple<std::string, std::string, std::string>> got;
    j.read([&](const kernel_log::KernelLine& l) {
        got.emplace_back(l.message, l.kernel_device, l.kernel_subsystem);
    });
    EXPECT_EQ(got,
              (std::vector<std::tuple<std::string, std::string, std::string>>{
                  {"mlx5_core 0000:3b:00.0: Fatal error 1 detected", "+pci:0000:3b:00.0", "pci"},
                  {"NETDEV WATCHDOG: eth1 (mlx5_core): transmit queue 1 timed out", "", ""}}));
}

TEST_F(KernelJournalTest, UnusableCursorFallsBackToTheCurrentBoot)
{
    write("a", {{.message = "one"}});
    kernel_log::KernelJournal j(root_, kBoot, std::string("not-a-cursor"));
    EXPECT_EQ(readAll(j), std::vector<std::string>{"one"});
}

TEST_F(KernelJournalTest, ReadsBootIdWithoutDashes)
{
    auto f = root_ / "boot_id";
    std::ofstream(f) << "3f1a2b3c-4d5e-6f70-8192-a3b4c5d6e7f8\n";
    EXPECT_EQ(kernel_log::readBootId(f), "3f1a2b3c4d5e6f708192a3b4c5d6e7f8");
    EXPECT_EQ(kernel_log::readBootId(root_ / "missing"), "");
}
