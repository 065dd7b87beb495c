// Replacing a file so that readers see the old content or the new one, never a mix, and a crash
// leaves one of the two: temp file in the same directory, fsync, rename, fsync the directory.
// Durability::Cache leaves out the two fsyncs, for a file rewritten every cycle from memory (the
// textfile): a process that dies leaves a whole file all the same (the page cache has it); only
// a power loss can leave it empty until the first cycle after boot rewrites it, and the disk is
// not made to write ~1 MB every few seconds for that.
// The directory may be writable by others (node_exporter's textfile directory often belongs to a
// `prometheus` group): the temporary file is created exclusively and never through a symlink, and
// rename() replaces a planted link at the target itself, not what it points to.
#pragma once

#include "text/result.hpp"

#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace nicd::paths {

// On failure an Error "cannot write <path>: <step>: <strerror>". Never throws; leaves
// no temporary file behind on failure; does not create missing directories. The file gets `mode`
// (0644: node_exporter reads the textfile as its own user) whatever the umask, and so does the
// temporary file from its creation. The temporary file ".<name>.<pid>.<n>" lives in the same
// directory (rename is atomic only within one filesystem) and starts with '.', so *.prom globs
// skip it. Safe to call from several threads at once.
enum class Durability : uint8_t { Synced, Cache };
Result<void> writeFileAtomically(const std::filesystem::path& path, std::string_view content,
                                 Durability durability = paths::Durability::Synced,
                                 mode_t mode = 0644);

// The same, with the content streamed: `produce` calls `write` with each piece in order. After a
// failed write the rest are dropped and the file is not replaced; an exception from `produce`
// removes the temporary file and propagates.
using ChunkWriter = std::function<void(std::string_view)>;
using ChunkProducer = std::function<void(const ChunkWriter&)>;
Result<void> writeFileAtomically(const std::filesystem::path& path, const ChunkProducer& produce,
                                 Durability durability = paths::Durability::Synced,
                                 mode_t mode = 0644);

// The same into the directory open as `dir` (the file is `path`'s file name there; `path` names
// it in messages): everything happens on that descriptor (openat, renameat), so no symlink on the
// way to the directory is followed once it is open (textfile/textfile_dir.hpp opens it).
Result<void> writeFileAtomicallyAt(int dir, const std::filesystem::path& path,
                                   const ChunkProducer& produce, Durability durability,
                                   mode_t mode);

// Removes the temporary files of `path` (".<name>.<pid>.<n>") that a process no longer running
// left behind — nicd killed between creating and renaming one — and returns their paths. Call it
// before this process writes `path`: a file with this process's own pid is taken for a leftover
// of an earlier process that had the same pid. The directory is opened O_NOFOLLOW (a link in its
// place is not followed: nothing is removed) and read and unlinked on its descriptor (unlinkat);
// links are removed, never followed.
std::vector<std::filesystem::path> removeStaleTemporaries(const std::filesystem::path& path);
// The same in the directory open as `dir` (the textfile's, opened by textfile/textfile_dir.hpp);
// `path` names the file in it and in what is returned.
std::vector<std::filesystem::path> removeStaleTemporariesAt(int dir,
                                                            const std::filesystem::path& path);

} // namespace nicd::paths
