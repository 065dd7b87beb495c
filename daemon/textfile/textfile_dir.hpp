// The textfile's directory: node_exporter's package creates it, but nicd may be installed (or
// started) before node_exporter, or pointed at a directory nobody made yet. It usually belongs
// to node_exporter's user (/var/lib/prometheus is the prometheus user's), who must not be able to
// steer root's writes elsewhere with a symlink.
#pragma once

#include "paths/fd.hpp"
#include "text/result.hpp"

#include <filesystem>
#include <vector>

namespace nicd::textfile {

// Opens `dir` (absolute) for writing the textfile into, walking it from "/" one component at a
// time on descriptors opened O_NOFOLLOW (paths/beneath.hpp): missing directories are made
// (mkdirat) with mode 0755, set with fchmod on the new directory's descriptor whatever the umask
// (node_exporter runs as its own user and must traverse them); a symlink on the way is followed
// only as systemd-tmpfiles follows one (the link and the directory holding it are root's and
// writable by root alone: an admin's own layout), and refused, naming it, in a directory another
// user can write. `created`: the directories made, outermost first (also when it then failed).
struct TextfileDir {
    std::vector<std::filesystem::path> created;
    // O_RDONLY | O_DIRECTORY, or an Error "cannot use the textfile directory <dir>: <why>".
    Result<paths::Fd> fd;
};
TextfileDir openTextfileDir(const std::filesystem::path& dir);

} // namespace nicd::textfile
