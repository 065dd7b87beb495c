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

// Each call writes a new journal file (<name>.journal). Returns false and sets `error` on failure.
bool writeJournal(const std::filesystem::path& root, const std::string& name,
                  const std::vector<JournalEntry>& entries, std::string& error);

} // namespace nicd::test
