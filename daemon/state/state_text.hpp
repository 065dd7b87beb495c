// The text of nicd's state file (StateDirectory/state.json) read back into a PersistentState:
// pure, so that the loader (state_store.hpp) and the fuzzer share it.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace nicd {

struct PersistentState {
    static constexpr int kVersion = 1;
    std::string boot_id;
    std::optional<std::string> journal_cursor;
    nlohmann::json health = nlohmann::json::object();
};

// {"version": 1, "boot_id": "...", "journal_cursor": "..." or null, "health": {...}}. nullopt,
// with `why` saying what is wrong, for text that is not JSON, a document that is not an object,
// a version that is not the integer kVersion, or a boot_id that is not a string. A cursor that is
// not a string is no cursor; a missing health is an empty object. Throws nothing.
std::optional<PersistentState> parseStateText(std::string_view text, std::string& why);

} // namespace nicd
