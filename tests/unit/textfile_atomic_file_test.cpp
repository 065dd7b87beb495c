// Replacing a file so that a reader (node_exporter, the next nicd start) sees the old content or
// the new one, never a mix, with no temporary file left behind, and a clear error otherwise.
#include "paths/atomic_file.hpp"
#include "support/temp_dir.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <fstream>
#include <set>
#include <stdexcept>
#include <thread>

#include <gtest/gtest.h>

using namespace nicd;
namespace fs = std::filesystem;

namespace {

std::string read(const fs::path& p)
{
    std::ifstream in(p);
    return {std::istreambuf_iterator<char>(in), {}};
}

std::set<std::string> entries(const fs::path& dir)
{
    std::set<std::string> names;
    for (const auto& e : fs::directory_iterator(dir))
        names.insert(e.path().filename().string());
    return names;
}

class AtomicFile : public test::TempDirTest {};

} // namespace

TEST_F(AtomicFile, ReplacesTheContentAndLeavesNoTemporaryFile)
{
    auto f = dir_ / "nicd.prom";
    ASSERT_TRUE(paths::writeFileAtomically(f, "one\n"));
    EXPECT_EQ(read(f), "one\n");
    ASSERT_TRUE(paths::writeFileAtomically(f, "two\n"));
    EXPECT_EQ(read(f), "two\n");
    ASSERT_TRUE(paths::writeFileAtomically(f, ""));
    EXPECT_EQ(read(f), "");
    EXPECT_EQ(entries(dir_), std::set<std::string>{"nicd.prom"});
}

TEST_F(AtomicFile, IsReadableByOthersWhateverTheUmask)
{
    auto old = ::umask(077);
    auto written = paths::writeFileAtomically(dir_ / "nicd.prom", "x\n");
    ::umask(old);
    ASSERT_TRUE(written) << written.error().message;
    EXPECT_EQ(fs::status(dir_ / "nicd.prom").permissions() & fs::perms::all,
              fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read |
                  fs::perms::others_read);
}

TEST_F(AtomicFile, AMissingDirectoryIsAClearErrorAndIsNotCreated)
{
    auto f = dir_ / "missing" / "nicd.prom";
    auto written = paths::writeFileAtomically(f, "x");
    ASSERT_FALSE(written);
    const auto& err = written.error().message;
    EXPECT_TRUE(err.starts_with("cannot write " + f.string() + ": ")) << err;
    EXPECT_NE(err.find("No such file or directory"), std::string::npos) << err;
    EXPECT_FALSE(fs::exists(dir_ / "missing"));
}

TEST_F(AtomicFile, AFailedRenameLeavesNoTemporaryFile)
{
    auto f = dir_ / "nicd.prom";
    fs::create_directories(f / "occupied"); // a non-empty directory where the file should go
    auto written = paths::writeFileAtomically(f, "x");
    ASSERT_FALSE(written);
    const auto& err = written.error().message;
    EXPECT_NE(err.find(f.string()), std::string::npos) << err;
    EXPECT_NE(err.find("rename"), std::string::npos) << err;
    EXPECT_EQ(entries(dir_), std::set<std::string>{"nicd.prom"});
    EXPECT_TRUE(fs::is_directory(f));
}

TEST_F(AtomicFile, ConcurrentWritersEachLeaveOneWholeVersion)
{
    auto f = dir_ / "state.json";
    std::string a(100000, 'a'), b(100000, 'b');
    std::thread other([&] {
        for (int i = 0; i < 50; ++i)
            EXPECT_TRUE(paths::writeFileAtomically(f, a));
    });
    for (int i = 0; i < 50; ++i) {
        EXPECT_TRUE(paths::writeFileAtomically(f, b));
        auto content = read(f);
        EXPECT_TRUE(content == a || content == b) << "a mix of " << content.size() << " bytes";
    }
    other.join();
    EXPECT_EQ(entries(dir_), std::set<std::string>{"state.json"});
}

TEST_F(AtomicFile, StreamedPiecesLandInOrder)
{
    auto f = dir_ / "nicd.prom";
    ASSERT_TRUE(paths::writeFileAtomically(f, [](const paths::ChunkWriter& write) {
        write("a 1\n");
        write("");
        write("b 2\n");
    }));
    EXPECT_EQ(read(f), "a 1\nb 2\n");
}

// A renderer that throws half-way (a programming error) leaves the old file and no temporary.
TEST_F(AtomicFile, AThrowingProducerLeavesTheOldFile)
{
    auto f = dir_ / "nicd.prom";
    ASSERT_TRUE(paths::writeFileAtomically(f, "old\n"));
    EXPECT_THROW((void)paths::writeFileAtomically(f,
                                                  [](const paths::ChunkWriter& write) {
                                                      write("half");
                                                      throw std::logic_error("bad family");
                                                  }),
                 std::logic_error);
    EXPECT_EQ(read(f), "old\n");
    EXPECT_EQ(entries(dir_), std::set<std::string>{"nicd.prom"});
}

// The textfile directory is often writable by a `prometheus` group: a link planted at the file or
// at the next temporary name must not make nicd (root) write through it.
TEST_F(AtomicFile, NeverWritesThroughALinkPlantedInTheDirectory)
{
    auto victim = dir_ / "victim";
    std::ofstream(victim) << "keep me\n";
    auto f = dir_ / "nicd.prom";
    fs::create_symlink(victim, f); // at the file itself
    // At every temporary name this process could use next (ctest runs each test in a process of
    // its own; run together, the tests above write about a hundred files): symlinks, hard links.
    for (int n = 0; n < 1024; ++n) {
        auto tmp = dir_ / (".nicd.prom." + std::to_string(::getpid()) + "." + std::to_string(n));
        if (n % 2 == 0)
            fs::create_symlink(victim, tmp);
        else
            fs::create_hard_link(victim, tmp);
    }
    ASSERT_TRUE(paths::writeFileAtomically(f, "nicd_up 1\n"));
    EXPECT_EQ(read(victim), "keep me\n") << "the link's target is untouched";
    EXPECT_FALSE(fs::is_symlink(f)) << "the planted link itself was replaced";
    EXPECT_EQ(read(f), "nicd_up 1\n");
    struct stat st {};
    ASSERT_EQ(::stat(f.c_str(), &st), 0);
    EXPECT_EQ(st.st_nlink, 1U) << "nicd.prom is a file of its own, not another name of the target";
}

// nicd killed between creating its temporary file and renaming it leaves the file; the next
// start removes it, and only it: another writer's file, a live process's and other names stay.
TEST_F(AtomicFile, StaleTemporariesOfDeadWritersAreRemoved)
{
    auto f = dir_ / "nicd.prom";
    pid_t dead = 0;
    for (pid_t candidate = 4'000'000; candidate > 3'000'000 && dead == 0; candidate -= 7919)
        if (::kill(candidate, 0) != 0 && errno == ESRCH)
            dead = candidate;
    ASSERT_NE(dead, 0);
    auto touch = [&](const std::string& name) { std::ofstream(dir_ / name) << "x"; };
    touch(".nicd.prom." + std::to_string(dead) + ".3");       // a dead writer's
    touch(".nicd.prom." + std::to_string(::getpid()) + ".0"); // an earlier process, our pid
    fs::create_symlink(dir_ / "victim", dir_ / (".nicd.prom." + std::to_string(dead) + ".4"));
    touch(".nicd.prom.1.7");                             // pid 1 runs: kept
    touch(".other.prom." + std::to_string(dead) + ".1"); // another file's
    touch(".nicd.prom.12x.1");                           // not a temporary name
    touch("nicd.prom");

    auto removed = paths::removeStaleTemporaries(f);
    EXPECT_EQ(removed.size(), 3U);
    EXPECT_EQ(entries(dir_),
              (std::set<std::string>{".nicd.prom.1.7", ".other.prom." + std::to_string(dead) + ".1",
                                     ".nicd.prom.12x.1", "nicd.prom"}));
}

// The textfile's directory is node_exporter's group's to write: a link planted in its place
// (the directory replaced by a link to a root-only one) leads the cleanup nowhere, and the dead
// writer's file there stays; in the directory itself, removal is by descriptor.
TEST_F(AtomicFile, TheCleanupFollowsNoLinkInTheDirectorysPlace)
{
    pid_t dead = 0;
    for (pid_t candidate = 4'000'000; candidate > 3'000'000 && dead == 0; candidate -= 7919)
        if (::kill(candidate, 0) != 0 && errno == ESRCH)
            dead = candidate;
    ASSERT_NE(dead, 0);
    const auto root_only = dir_ / "root-only";
    fs::create_directory(root_only);
    const auto victim = root_only / (".nicd.prom." + std::to_string(dead) + ".1");
    std::ofstream(victim) << "x";
    fs::create_directory_symlink(root_only, dir_ / "textfile");
    EXPECT_TRUE(paths::removeStaleTemporaries(dir_ / "textfile" / "nicd.prom").empty());
    EXPECT_TRUE(fs::exists(victim)) << "removed through the planted link";

    const int fd = ::open(root_only.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    ASSERT_GE(fd, 0);
    auto removed = paths::removeStaleTemporariesAt(fd, root_only / "nicd.prom");
    ::close(fd);
    EXPECT_EQ(removed, std::vector<fs::path>{victim});
    EXPECT_FALSE(fs::exists(victim));
}

// A private file (state.json: 0600) is private from the moment its temporary file exists, not
// only once it is renamed into place.
TEST_F(AtomicFile, AFileAndItsTemporaryHaveTheirModeWhateverTheUmask)
{
    auto f = dir_ / "state.json";
    std::set<unsigned> temporary_modes;
    const mode_t old = ::umask(0);
    auto written = paths::writeFileAtomically(
        f,
        [&](const paths::ChunkWriter& write) {
            for (const auto& e : fs::directory_iterator(dir_))
                temporary_modes.insert(static_cast<unsigned>(e.status().permissions()));
            write("{}\n");
        },
        paths::Durability::Synced, 0600);
    ::umask(old);
    ASSERT_TRUE(written) << written.error().message;
    EXPECT_EQ(temporary_modes, std::set<unsigned>{0600});
    EXPECT_EQ(fs::status(f).permissions(), fs::perms(0600));
}
