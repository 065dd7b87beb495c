// Writing inside a directory tree that may hold symlinks someone else made (a capture from
// another machine, a node a test or a shell changed): paths are walked on descriptors
// (paths/beneath.hpp), so nothing is created or replaced outside the tree, whatever its links
// say, and a symlink where a file is to be written is refused, not written through nor replaced.
#pragma once

#include "paths/beneath.hpp"
#include "sim.hpp"

#include <sys/types.h>

#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace nicd::sim {

using paths::plainComponents;

// The directory `dir` itself (following links: the caller names it), or throws SimError.
paths::Fd openDir(const fs::path& dir);

// The directory made of `components` under the directory `parent`, no component followed if it
// is a symlink; with `create`, missing ones are made with `mode`. Throws SimError naming
// `shown` (the path as the user knows it).
paths::Fd openDirBeneath(int parent, std::span<const std::string> components, bool create,
                         mode_t mode, const fs::path& shown);

// The directory holding `path` (inside the node `root`), opened beneath root with no symlink
// followed on the way (with `create`, missing directories are made 0755), and `path`'s file
// name there: what a fault then changes is changed on that descriptor (fchmodat, renameat,
// unlinkat, mkfifoat), so a link planted in the tree never takes it outside. Throws SimError
// naming the path.
struct AtParent {
    paths::Fd dir;
    std::string name;
};
AtParent parentBeneath(const fs::path& root, const fs::path& path, bool create = false);

// Moves `from` to `to` (both inside `root`) as parentBeneath() opens them; throws SimError.
void renameBeneath(const fs::path& root, const fs::path& from, const fs::path& to);
// Removes the entry `path` itself (a file, a link, a FIFO), never what a link there points to;
// `missing_ok`: nothing there is no error. Throws SimError.
void unlinkBeneath(const fs::path& root, const fs::path& path, bool missing_ok = true);

// Replaces files inside `root` (a node) by renaming a staged one (from root/run/nicd-sim/tmp,
// none of whose components may be a symlink) into place: a reader never sees one half written.
// The file's directory is opened beneath root: with Links::Refuse no symlink is followed on the
// way (a capture's paths are real ones), with Links::Beneath the tree's own relative links are
// (sys/class/net/<netdev> leads into sys/devices) but none that leads out of it. A symlink at the
// file itself is refused. Throws SimError naming the file.
class BeneathWriter {
public:
    explicit BeneathWriter(const fs::path& root, paths::Links links = paths::Links::Refuse);

    void replace(std::string_view rel, std::string_view content);
    void replaceWithFifo(std::string_view rel); // a blocking read, as nicd-sim stall makes

private:
    std::pair<int, std::string> parentOf(std::string_view rel);
    std::string stage(bool fifo, std::string_view content);
    void renameIntoPlace(const std::string& staged, std::string_view rel);

    fs::path root_;
    paths::Links links_;
    paths::Fd root_fd_;
    paths::Fd tmp_fd_;
    std::map<std::string, paths::Fd> dirs_; // parent directories opened so far
};

} // namespace nicd::sim
