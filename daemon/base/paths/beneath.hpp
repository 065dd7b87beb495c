// Paths that must not lead where someone else chose: beneath a root given with --root (a tree
// from elsewhere is data: no ".." and no symlink takes nicd or nicd-sim out of it), and through
// directories others can write (a symlink there is not followed). One walk serves both: each
// component is looked at (fstatat, not following) and opened with O_NOFOLLOW on the descriptor
// of the one before, ".." is taken lexically and never climbs above the walk's top, and a
// symlink is followed only as `Links` allows, by reading its target and walking that.
// openBeneath asks the kernel for the same (openat2 with RESOLVE_BENEATH) where it can.
#pragma once

#include "paths/fd.hpp"
#include "text/result.hpp"

#include <fcntl.h>
#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nicd::paths {

// The components of a relative path; nullopt when it is absolute or empty, or has an empty, "."
// or ".." component (no path of a tree's own layout needs one).
std::optional<std::vector<std::string>> plainComponents(std::string_view rel);

enum class Links : uint8_t {
    Refuse,    // no symlink is followed: one on the way is ELOOP
    Beneath,   // relative ones are followed while they stay beneath the top; an absolute one EXDEV
    RootOwned, // systemd-tmpfiles' safe transition: followed (an absolute one from the top) only
               // where the link and its directory are root's and writable by root alone; EPERM
};

struct WalkOptions {
    Links links = Links::Refuse;
    // How the last component is opened (O_CLOEXEC is added). With O_NOFOLLOW a trailing symlink
    // is not followed: O_PATH opens the link itself, anything else is ELOOP.
    int flags = O_PATH;
    // A missing component (or one below a file) ends the walk without an error: `rel` has the
    // rest as written, `fd` stays closed.
    bool missing_ok = false;
    // Missing directories, the last component included, are made with this mode (fchmod'ed to
    // it, whatever the umask).
    std::optional<mode_t> create;
    // Put before a component's path in messages ("/" when the top is the root directory).
    std::string prefix;
};

struct Walk {
    Fd fd;                            // the last component, opened; closed on failure
    std::string rel;                  // where the path led, relative to the top ("" for the top)
    std::vector<std::string> created; // directories made, relative to the top, outermost first
    int err = 0;                      // errno on failure
    std::string why;                  // on failure: what, naming the component (prefix + path)
    bool ok() const { return err == 0; }
};

// Walks `path` (relative to the directory `top`; leading "/" is the top itself).
Walk walkBeneath(int top, std::string_view path, const WalkOptions& options);

// openat(top, rel, flags) that never leaves `top`: openat2 with RESOLVE_BENEATH (and
// RESOLVE_NO_SYMLINKS for Links::Refuse) where the kernel has it; walkBeneath where it has not
// (before Linux 5.6, or a system call filter refusing it) and for Links::RootOwned. -1 with
// errno on failure (ELOOP: a symlink refused; EXDEV: a way out of `top`).
int openBeneath(int top, std::string_view rel, int flags, Links links);

// Where the host path `path` (as --root relocates it: "/var/lib/nicd" under `root`) leads,
// relative to `root`: ".." and symlinks are followed as the kernel would while they stay beneath
// root, a missing tail is taken as written. An Error naming the component when ".." or a symlink
// (an absolute one, or one that climbs) leads out of root, or root cannot be opened.
Result<std::string> resolveBeneath(const std::filesystem::path& root, std::string_view path);

} // namespace nicd::paths
