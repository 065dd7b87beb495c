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
};

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
