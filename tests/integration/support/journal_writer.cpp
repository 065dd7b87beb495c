#include "support/journal_writer.hpp"

#include "unit/support/kernel_records.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>

namespace nicd::test {

bool journalRemoteInstalled()
{
    std::error_code ec;
    return std::filesystem::exists(kJournalRemote, ec);
}

JournalEntry kernelEntry(const std::string& message, uint64_t realtime_usec,
                         const std::string& boot_id)
{
    auto l = logged(message);
    return {.message = l.message,
            .boot_id = boot_id,
            .realtime_usec = realtime_usec,
            .kernel_device = l.kernel_device,
            .kernel_subsystem = l.kernel_subsystem};
}

bool writeJournal(const std::filesystem::path& root, const std::string& name,
                  const std::vector<JournalEntry>& entries, std::string& error)
{
    if (!journalRemoteInstalled()) {
        error = std::string("systemd-journal-remote is not installed (") + kJournalRemote +
                "; apt-get install systemd-journal-remote)";
        return false;
    }
    auto dir = root / "var/log/journal" / kTestMachineId;
    std::filesystem::create_directories(dir);
    auto export_file = dir / (name + ".export");
    {
        std::ofstream out(export_file);
        // One boot's entries are ordered by monotonic time: derive it from the realtime stamp so
        // entries written by separate calls interleave as they would on a real node.
        uint64_t previous = 0;
        for (const auto& e : entries) {
            uint64_t mono = std::max<uint64_t>(e.realtime_usec - 1600000000000000ULL, previous + 1);
            previous = mono;
            out << "__REALTIME_TIMESTAMP=" << e.realtime_usec << "\n"
                << "__MONOTONIC_TIMESTAMP=" << mono << "\n"
                << "_BOOT_ID=" << e.boot_id << "\n"
                << "_TRANSPORT=" << e.transport << "\n"
                << "_MACHINE_ID=" << kTestMachineId << "\n";
            if (!e.kernel_device.empty())
                out << "_KERNEL_DEVICE=" << e.kernel_device << "\n";
            if (!e.kernel_subsystem.empty())
                out << "_KERNEL_SUBSYSTEM=" << e.kernel_subsystem << "\n";
            if (!e.syslog_facility.empty())
                out << "SYSLOG_FACILITY=" << e.syslog_facility << "\n";
            out << "_HOSTNAME=simnode\n"
                << "PRIORITY=3\n"
                << "MESSAGE=" << e.message << "\n\n";
        }
    }
    auto journal = dir / (name + ".journal");
    std::string cmd = std::string(kJournalRemote) + " --output='" + journal.string() + "' '" +
                      export_file.string() + "' >/dev/null 2>&1";
    int rc = std::system(cmd.c_str()); // NOLINT(concurrency-mt-unsafe,cert-env33-c): test helper
    std::filesystem::remove(export_file);
    if (rc != 0) {
        error = "systemd-journal-remote failed (" + std::to_string(rc) + ") writing " +
                journal.string();
        return false;
    }
    return true;
}

} // namespace nicd::test
