// nicd's memory across restarts within one boot, kept in StateDirectory/state.json: counter
// windows, conditions and the event log (the health engine's), and the journal cursor. At start
// the file is loaded into the health engine; a new boot, or a file that cannot be used, starts
// from a baseline instead, that keeps of the saved state only the hardware it names (the known
// devices with their boards, firmware and rates: a NIC that did not come back is missing). Written
// when health changed and at most once a minute otherwise (counter windows move every cycle; losing
// a minute of them on a crash costs nothing but a slightly later alarm). A failed write keeps the
// state due and is tried again every 10 s, and reported once (WriteFailures). Loop thread.
#pragma once

#include "config/host_paths.hpp"
#include "textfile/write_failures.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace nicd::health {
class HealthEngine;
}

namespace nicd::state {

class StateStore;

class StateKeeper {
public:
    StateKeeper(const HostPaths& paths, const std::string& state_directory,
                health::HealthEngine& health);
    ~StateKeeper();
    StateKeeper(const StateKeeper&) = delete;
    StateKeeper& operator=(const StateKeeper&) = delete;

    // Loads the saved state of this boot into the health engine, or starts from a baseline.
    void restore();
    // Health changed: the next save() writes whatever the time.
    void changed() { dirty_ = true; }
    // Writes the health engine's memory and `journal_cursor` when due (or `force`).
    void save(const std::optional<std::string>& journal_cursor, bool force = false);

    const std::string& bootId() const { return boot_id_; }
    // The cursor saved for this boot (nullopt on a new boot or without a file).
    const std::optional<std::string>& savedJournalCursor() const { return saved_cursor_; }

private:
    health::HealthEngine& health_;
    std::unique_ptr<StateStore> store_;
    std::string boot_id_;
    std::optional<std::string> saved_cursor_;
    bool dirty_ = false;
    uint64_t last_save_usec_ = 0;
    uint64_t last_attempt_usec_ = 0;
    textfile::WriteFailures failures_{"state"};
};

} // namespace nicd::state
