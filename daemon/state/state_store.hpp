// nicd's persistent state (StateDirectory/state.json): the boot it belongs to, the journal
// cursor, and the health engine's memory. Written atomically, only when it changed, mode 0600
// (its temporary file too) whatever the umask; a corrupt or foreign file is reported, set aside
// and replaced, never fatal.
#pragma once

#include "state/state_text.hpp"

#include <filesystem>
#include <optional>
#include <string>

namespace nicd::state {

// The most a state file may hold: ~500 KB on a 64-device node, a few MB at 512.
inline constexpr size_t kMaxStateFileBytes = 64u << 20;

class StateStore {
public:
    explicit StateStore(std::filesystem::path file) : file_(std::move(file)) {}

    // nullopt when there is no usable state (none yet, or corrupt/foreign, or not a regular file
    // of at most kMaxStateFileBytes: then set aside as state.json.corrupt-<unix time> with a log
    // line saying why).
    std::optional<PersistentState> load();
    // Writes the file's whole text (stateText()) when it differs from the last load/save; an
    // Error naming the file on failure.
    Result<void> saveText(const std::string& text);

    const std::filesystem::path& file() const { return file_; }

private:
    std::filesystem::path file_;
    bool has_last_ = false;
    size_t last_digest_ = 0; // std::hash of what was last loaded or written
};

} // namespace nicd::state
