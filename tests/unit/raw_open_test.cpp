// One way to open a path (issue 39): nicd, its plugins' SDK and nicd-sim open a host path through
// the helpers that resolve it beneath a root without following a planted link, never wait on a
// FIFO and bound every read: paths/beneath.hpp (walkBeneath, openBeneath), the SDK's
// small_file.h (readSmallFile, readRegularFile[At], writeSmallFile), the atomic file writer and
// the knob writer's walk. This reads every source under daemon/, plugins/ and tools/, blanks its
// comments, and fails on a raw open(), fopen() or file stream outside the files listed below,
// each with the reason it opens a path itself, and on more raw opens in a listed file than it
// has today: a new one is either moved behind a helper or listed here with its reason.
// (openat() on a directory descriptor the file opened beneath its root is how the helpers work,
// and is not counted.)
#include "support/sim_tree.hpp"
#include "support/source_text.hpp"

#include <filesystem>
#include <map>
#include <regex>
#include <string>

#include <gtest/gtest.h>

namespace fs = std::filesystem;

namespace {

struct Allowed {
    size_t opens; // raw opens the file has
    const char* why;
};

// Relative to the source tree.
const std::map<std::string, Allowed>& allowed()
{
    static const std::map<std::string, Allowed> a{
        // The helpers themselves: the walk's top, and the directories they then work beneath.
        {"daemon/base/paths/beneath.cpp", {1, "the root a walk starts from"}},
        {"daemon/base/paths/atomic_file.cpp",
         {2, "the atomic writer's directory (O_DIRECTORY; the textfile's comes by descriptor)"}},
        {"plugins/sdk/src/small_file.cpp",
         {3, "readSmallFile, writeSmallFile and the root readSmallFileBeneath walks beneath"}},
        {"daemon/textfile/textfile_dir.cpp",
         {1, "\"/\", the top of the textfile directory's walk"}},
        {"tools/nicd-sim/beneath.cpp", {1, "the node directory the simulator was given"}},
        // A root directory, opened O_PATH to walk beneath it.
        {"daemon/app/run_lock.cpp", {1, "the root, to walk to run/nicd beneath it"}},
        {"daemon/privilege/knob_writer.cpp", {2, "the root the knob writer works beneath"}},
        {"plugins/sdk/src/dcb_sim_backend.cpp", {1, "the root, to open the DCB files beneath it"}},
        {"daemon/neighbor/lldpd_client.cpp", {1, "the root, to open lldpd's socket beneath it"}},
        {"tools/nicd-sim/node_state.cpp", {1, "the node, to take its lock beneath it"}},
        {"tools/nicd-sim/capture/node_files.cpp",
         {2, "the capture's source root, and a file by /proc/self/fd of a descriptor opened "
             "beneath it"}},
        {"tools/nicd-sim/capture/source_lock.cpp",
         {2, "the source's lock: O_PATH|O_NOFOLLOW, then reopened by its descriptor"}},
        {"tools/nicd-sim/capture/tree_writer.cpp",
         {1, "the tarball the user named on the command line (O_EXCL|O_NOFOLLOW)"}},
        // Files of the kernel's own, read where the kernel's links must be followed.
        {"daemon/inventory/sysfs_values.cpp",
         {2, "sysfs attributes, reached through the class links sysfs itself makes"}},
        {"daemon/readiness/readiness_reads.cpp",
         {1, "a readiness file (O_NOFOLLOW|O_NONBLOCK, bounded)"}},
        {"plugins/sdk/src/counter_dir.cpp",
         {2, "a counters/ directory kept open between reads (fds per file beneath it)"}},
        {"plugins/sdk/src/netdev_stats.cpp",
         {1, "a netdev statistics file kept open (O_NOFOLLOW|O_NONBLOCK)"}},
        {"tools/nicd-sim/files.cpp", {1, "a node file read O_NONBLOCK (a stalled counter's FIFO)"}},
        // Files an administrator names, not a tree's.
        {"daemon/config/config.cpp",
         {1, "the configuration file and drop-ins (a regular file, O_NONBLOCK, bounded)"}},
        {"daemon/privilege/landlock.cpp",
         {1, "a directory Landlock is given (O_PATH; the simulator's only where no link leads)"}},
        {"tools/nicctl/slurm_state.cpp", {1, "slurm-check's own state file (root's)"}},
        {"tools/nicctl/slurm_check_command.cpp", {1, "slurm-check's configuration file"}},
        {"tools/nicd-conf-man/main.cpp", {1, "the build's nicd.conf, a build tool's input"}},
    };
    return a;
}

// A raw open: ::open( (the system call, not a member named open), fopen(, a file stream.
const std::regex kRawOpen(R"(((^|[^\w>.])::open\s*\(|\bfopen\s*\(|\bstd::[io]?fstream\b))");

} // namespace

TEST(OneWayToOpen, NoRawOpenOfAHostPathOutsideTheHelpersAndTheListedReasons)
{
    std::map<std::string, size_t> found;
    for (const char* top : {"daemon", "plugins", "tools"})
        for (const auto& e : fs::recursive_directory_iterator(fs::path(NICD_SOURCE_DIR) / top)) {
            const auto ext = e.path().extension();
            if (!e.is_regular_file() || (ext != ".cpp" && ext != ".hpp" && ext != ".h"))
                continue;
            const auto code = nicd::test::withoutComments(nicd::test::readFile(e.path()));
            const auto n = static_cast<size_t>(std::distance(
                std::sregex_iterator(code.begin(), code.end(), kRawOpen), std::sregex_iterator()));
            if (n > 0)
                found[e.path().lexically_relative(NICD_SOURCE_DIR).string()] = n;
        }
    for (const auto& [file, n] : found) {
        auto it = allowed().find(file);
        if (it == allowed().end()) {
            ADD_FAILURE() << file << " opens a host path itself (" << n
                          << " raw open(s)): use paths/beneath.hpp or the SDK's small_file.h, "
                             "or list it in this test with the reason";
            continue;
        }
        EXPECT_LE(n, it->second.opens)
            << file << " has more raw opens than listed (" << it->second.why << ")";
    }
    for (const auto& [file, a] : allowed())
        EXPECT_TRUE(found.contains(file))
            << file << " is listed but opens nothing itself any more: take it off the list";
}
