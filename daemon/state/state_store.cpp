#include "state/state_store.hpp"

#include "log/log.hpp"
#include "textfile/atomic_file.hpp"

#include <ctime>
#include <fstream>
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
            last_written_ = ss.str();
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

std::optional<std::string> StateStore::save(const PersistentState& state)
{
    nlohmann::json j;
    j["version"] = PersistentState::kVersion;
    j["boot_id"] = state.boot_id;
    j["journal_cursor"] =
        state.journal_cursor ? nlohmann::json(*state.journal_cursor) : nlohmann::json(nullptr);
    j["health"] = state.health;
    auto text = j.dump() + "\n";
    if (text == last_written_)
        return std::nullopt;
    std::error_code ec;
    std::filesystem::create_directories(file_.parent_path(), ec);
    if (auto err = writeFileAtomically(file_, text))
        return err;
    last_written_ = std::move(text);
    return std::nullopt;
}

} // namespace nicd
