#include "state/state_store.hpp"

#include "log/log.hpp"
#include "textfile/atomic_file.hpp"

#include <ctime>
#include <fstream>
#include <functional>
#include <sstream>

namespace nicd {

std::optional<PersistentState> StateStore::load()
{
    std::error_code ec;
    if (!std::filesystem::exists(file_, ec))
        return std::nullopt;
    std::ifstream in(file_);
    std::stringstream ss;
    ss << in.rdbuf();
    std::string why;
    try {
        auto j = nlohmann::json::parse(ss.str());
        int version = j.at("version").get<int>();
        if (version != PersistentState::kVersion) {
            why = "version " + std::to_string(version) + " (this nicd writes " +
                  std::to_string(PersistentState::kVersion) + ")";
        } else {
            PersistentState s;
            s.boot_id = j.at("boot_id").get<std::string>();
            if (j.contains("journal_cursor") && j["journal_cursor"].is_string())
                s.journal_cursor = j["journal_cursor"].get<std::string>();
            s.health = j.value("health", nlohmann::json::object());
            has_last_ = true;
            last_digest_ = std::hash<std::string>{}(ss.str());
            return s;
        }
    } catch (const std::exception& e) {
        why = e.what();
    }
    auto aside = file_;
    aside += ".corrupt-" + std::to_string(std::time(nullptr));
    std::filesystem::rename(file_, aside, ec);
    log::error({}, "state file {} is unusable ({}); set aside as {} and starting afresh",
               file_.string(), why, aside.string());
    return std::nullopt;
}

std::optional<std::string> StateStore::save(PersistentState state)
{
    std::string text;
    {
        // The health memory is moved in, not copied: with ~1,000 tracked counters the JSON tree
        // is about 1 MB, and it is freed before the file is written.
        nlohmann::json j;
        j["version"] = PersistentState::kVersion;
        j["boot_id"] = std::move(state.boot_id);
        j["journal_cursor"] =
            state.journal_cursor ? nlohmann::json(*state.journal_cursor) : nlohmann::json(nullptr);
        j["health"] = std::move(state.health);
        text = j.dump();
    }
    text += '\n';
    // Only a digest of the last content is kept: the file itself is ~200 KB on a 64-device node.
    size_t digest = std::hash<std::string>{}(text);
    if (has_last_ && digest == last_digest_)
        return std::nullopt;
    std::error_code ec;
    std::filesystem::create_directories(file_.parent_path(), ec);
    if (auto err = writeFileAtomically(file_, text))
        return err;
    has_last_ = true;
    last_digest_ = digest;
    return std::nullopt;
}

} // namespace nicd
