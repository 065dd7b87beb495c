// Replacing a file so that readers see the old content or the new one, never a mix, and a crash
// leaves one of the two: temp file in the same directory, fsync, rename, fsync the directory.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace nicd {

// Returns nullopt on success, else a message naming the path and the error. Never throws; leaves
// no temporary file behind. The temp file's name starts with '.', so *.prom globs skip it.
std::optional<std::string> writeFileAtomically(const std::filesystem::path& path,
                                               std::string_view content);

} // namespace nicd
