// The textfile's directory: node_exporter's package creates it, but nicd may be installed (or
// started) before node_exporter, or pointed at a directory nobody made yet.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace nicd {

// Creates `dir` and any missing parents, each with mode 0755 whatever the umask (node_exporter
// runs as its own user and must traverse them). Returns the directories it created, outermost
// first (empty when `dir` already existed), or an error naming the directory that could not be
// made and why. An existing non-directory at `dir` or a parent is an error.
struct MadeDirectories {
    std::vector<std::filesystem::path> created;
    std::optional<std::string> error;
};
MadeDirectories makeDirectories(const std::filesystem::path& dir);

} // namespace nicd
