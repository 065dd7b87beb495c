#include "state/state_text.hpp"

#include "health/json_text.hpp"

#include <utility>

namespace nicd::state {

Result<PersistentState> parseStateText(std::string_view text)
{
    try {
        auto j = nlohmann::json::parse(text);
        if (!j.is_object())
            return Error{"not a JSON object"};
        // Compared as JSON, never converted: 1e300 or 2^64 must not be cast to int.
        const auto& version = j.at("version");
        if (!version.is_number_integer() || version != PersistentState::kVersion)
            return Error{"version " + version.dump() + " (this nicd writes " +
                         std::to_string(PersistentState::kVersion) + ")"};
        PersistentState s;
        s.boot_id = j.at("boot_id").get<std::string>();
        if (auto cursor = j.find("journal_cursor"); cursor != j.end() && cursor->is_string())
            s.journal_cursor = cursor->get<std::string>();
        if (auto health = j.find("health"); health != j.end())
            s.health = std::move(*health); // moved: ~1 MB on a large node, and copying recurses
        return s;
    } catch (const nlohmann::json::exception& e) {
        return Error{e.what()};
    }
}

std::string stateText(std::string_view boot_id, const std::optional<std::string>& journal_cursor,
                      std::string_view health_json)
{
    // The keys in the order nlohmann's objects (std::map) dump them.
    std::string text;
    text.reserve(health_json.size() + boot_id.size() + 128);
    text += '{';
    health::appendJsonKey(text, "boot_id");
    health::appendJsonText(text, nlohmann::json(boot_id));
    text += ',';
    health::appendJsonKey(text, "health");
    text += health_json;
    text += ',';
    health::appendJsonKey(text, "journal_cursor");
    health::appendJsonText(text, journal_cursor ? nlohmann::json(*journal_cursor)
                                                : nlohmann::json(nullptr));
    text += ',';
    health::appendJsonKey(text, "version");
    health::appendJsonText(text, PersistentState::kVersion);
    text += "}\n";
    return text;
}

} // namespace nicd::state
