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
    std::string text = ss.str();
    std::string why;
    if (auto s = parseStateText(text, why)) {
        has_last_ = true;
        last_digest_ = std::hash<std::string>{}(text);
        return s;
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
        // JSON is UTF-8: a name or message with bytes that are not (a hostile fw_ver, a counter
        // file's name) is saved with U+FFFD in their place rather than failing the save (dump()
        // throws by default). Such a counter starts afresh after a restart; nothing else changes.
        text = j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
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
