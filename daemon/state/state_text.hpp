// The text of nicd's state file (StateDirectory/state.json) read back into a PersistentState:
// pure, so that the loader (state_store.hpp) and the fuzzer share it.
#pragma once

#include "text/result.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace nicd::state {

struct PersistentState {
    static constexpr int kVersion = 1;
    std::string boot_id;
    std::optional<std::string> journal_cursor;
    nlohmann::json health = nlohmann::json::object();
};

// {"version": 1, "boot_id": "...", "journal_cursor": "..." or null, "health": {...}}. An Error
// saying what is wrong for text that is not JSON, a document that is not an object,
// a version that is not the integer kVersion, or a boot_id that is not a string. A cursor that is
// not a string is no cursor; a missing health is an empty object. Throws nothing.
Result<PersistentState> parseStateText(std::string_view text);

// The file's text, with the health engine's memory given as JSON text (HealthEngine::appendJson):
// what dumping the whole document as one JSON tree gives, byte for byte, without the tree.
std::string stateText(std::string_view boot_id, const std::optional<std::string>& journal_cursor,
                      std::string_view health_json);

} // namespace nicd::state
