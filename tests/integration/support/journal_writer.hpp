// Writes real journal files under <root>/var/log/journal/<machine-id>/ with
// systemd-journal-remote, from entries given in journal export format.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace nicd::test {

struct JournalEntry {
    std::string message;
    std::string transport = "kernel";
    std::string boot_id = "11111111111111111111111111111111";
    uint64_t realtime_usec = 1700000000000000;
    // journald's trusted fields for a line the kernel printed about a device ("+pci:<bdf>",
    // "pci"): what dev_printk records beside the text. Empty: a device-less line.
    std::string kernel_device = {};
    std::string kernel_subsystem = {};
    // Set for what a program wrote to /dev/kmsg (journald records its facility; the kernel's
    // own lines have none).
    std::string syslog_facility = {};
};

// A kernel entry as the kernel logs `message`: about the device its dev_printk prefix names
// ("mlx5_core 0000:3b:00.0: ..."), else device-less (unit/support/kernel_records.hpp).
JournalEntry kernelEntry(const std::string& message, uint64_t realtime_usec,
                         const std::string& boot_id = "11111111111111111111111111111111");

// nicd-sim's default boot ID (sim::CreateOptions::boot_id) as the journal records it, without
// dashes: the boot a simulated node's kernel lines belong to.
inline constexpr const char* kSimBootId = "5b1f2c3d4e5f4a6b8c7d9e0f1a2b3c4d";

inline constexpr const char* kTestMachineId = "0123456789abcdef0123456789abcdef";

inline constexpr const char* kJournalRemote = "/lib/systemd/systemd-journal-remote";

// Whether systemd-journal-remote is there to write journal files (Debian: the package of that
// name). A test that needs kernel lines skips, saying so, when it is not.
bool journalRemoteInstalled();

// Each call writes a new journal file (<name>.journal). Returns false and sets `error` on failure
// (saying so when systemd-journal-remote is not installed).
bool writeJournal(const std::filesystem::path& root, const std::string& name,
                  const std::vector<JournalEntry>& entries, std::string& error);

} // namespace nicd::test
