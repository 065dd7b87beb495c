#include "state/state_store.hpp"

#include "log/log.hpp"
#include "paths/atomic_file.hpp"

#include <nicd/plugin/sdk/small_file.h>

#include <ctime>
#include <functional>

namespace nicd::state {

std::optional<PersistentState> StateStore::load()
{
    std::error_code ec;
    if (!std::filesystem::exists(std::filesystem::symlink_status(file_, ec)))
        return std::nullopt;
    // The state directory is root's, but the file is read as data all the same: a regular file
    // of bounded size, no link followed, never waited on (a FIFO there hung nicd --once).
    std::string text;
    Result<PersistentState> parsed = Error{};
    if (auto read = plugin::sdk::readRegularFile(file_, kMaxStateFileBytes, text); !read)
        parsed = Error{read.message};
    else
        parsed = parseStateText(text);
    if (parsed) {
        has_last_ = true;
        last_digest_ = std::hash<std::string>{}(text);
        return std::move(*parsed);
    }
    auto aside = file_;
    aside += ".corrupt-" + std::to_string(std::time(nullptr));
    std::filesystem::rename(file_, aside, ec);
    log::error({}, "state file {} is unusable ({}); set aside as {} and starting afresh",
               file_.string(), parsed.error().message, aside.string());
    return std::nullopt;
}

Result<void> StateStore::saveText(const std::string& text)
{
    // Only a digest of the last content is kept: the file itself is ~500 KB on a 64-device node.
    size_t digest = std::hash<std::string>{}(text);
    if (has_last_ && digest == last_digest_)
        return {};
    std::error_code ec;
    std::filesystem::create_directories(file_.parent_path(), ec);
    // 0600 whatever the umask: the journal cursor and the node's history are nobody else's.
    if (auto written = paths::writeFileAtomically(file_, text, paths::Durability::Synced, 0600);
        !written)
        return written;
    has_last_ = true;
    last_digest_ = digest;
    return {};
}

} // namespace nicd::state
