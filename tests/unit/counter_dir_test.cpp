// plugin::sdk::CounterDir: a counter directory kept open between reads. What a reader of sysfs
// relies on: every value is current (sysfs rewrites an attribute in place, which pread from 0
// sees; a tree whose files are replaced is listed again), files stay open only where the
// directory is settled, and a directory that goes away or comes back is followed.
#include "support/temp_dir.hpp"

#include <nicd/plugin/sdk/counter_dir.h>

#include <fcntl.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include <gtest/gtest.h>

namespace fs = std::filesystem;
using nicd::plugin::sdk::CounterDir;

namespace {

void put(const fs::path& p, const std::string& text)
{
    std::ofstream(p, std::ios::trunc) << text;
}

// In-place rewrite: the same inode (as sysfs), the directory's times untouched.
void rewrite(const fs::path& p, const std::string& text)
{
    std::fstream f(p, std::ios::in | std::ios::out);
    f << text;
}

// The directory as it is on a running node: last changed long ago.
void settle(const fs::path& dir)
{
    timespec times[2] = {{0, UTIME_OMIT}, {::time(nullptr) - 3600, 0}};
    ASSERT_EQ(::utimensat(AT_FDCWD, dir.c_str(), times, 0), 0);
}

std::map<std::string, std::string> readAll(CounterDir& d, int* rc = nullptr)
{
    std::map<std::string, std::string> out;
    int r = d.forEach(nullptr, [&](std::string_view name, std::string_view content, int err) {
        out[std::string(name)] = err == 0 ? std::string(content) : "errno " + std::to_string(err);
    });
    if (rc)
        *rc = r;
    return out;
}

class CounterDirTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        dir_ = nicd::test::makeTempDir("counter-dir") / "counters";
        fs::create_directories(dir_);
        put(dir_ / "symbol_error", "5\n");
        put(dir_ / "link_downed", "0\n");
        fs::create_directories(dir_ / "not_a_file"); // read() fails with EISDIR
    }
    void TearDown() override { fs::remove_all(dir_.parent_path()); }
    fs::path dir_;
};

} // namespace

TEST_F(CounterDirTest, EveryFileInNameOrderWithItsErrors)
{
    settle(dir_);
    CounterDir d(dir_.string());
    std::vector<std::string> order;
    d.forEach(nullptr,
              [&](std::string_view name, std::string_view, int) { order.emplace_back(name); });
    EXPECT_EQ(order, (std::vector<std::string>{"link_downed", "not_a_file", "symbol_error"}));
    auto v = readAll(d);
    EXPECT_EQ(v["symbol_error"], "5\n");
    EXPECT_EQ(v["not_a_file"], "errno " + std::to_string(EISDIR));
    // skip() leaves a file unread (backoff).
    std::vector<std::string> seen;
    d.forEach([](std::string_view name) { return name == "link_downed"; },
              [&](std::string_view name, std::string_view, int) { seen.emplace_back(name); });
    EXPECT_EQ(seen, (std::vector<std::string>{"not_a_file", "symbol_error"}));
}

TEST_F(CounterDirTest, ASettledDirectoryStaysOpenAndSeesValuesRewrittenInPlace)
{
    settle(dir_);
    CounterDir d(dir_.string());
    EXPECT_EQ(readAll(d)["symbol_error"], "5\n");
    EXPECT_EQ(d.openDescriptors(), 3U) << "the directory and its two readable files";
    rewrite(dir_ / "symbol_error", "7\n"); // what sysfs does: same file, new content
    EXPECT_EQ(readAll(d)["symbol_error"], "7\n");
    EXPECT_EQ(d.openDescriptors(), 3U);
}

TEST_F(CounterDirTest, AFileReplacedByRenameIsReadFromTheNewFile)
{
    settle(dir_);
    CounterDir d(dir_.string());
    readAll(d);
    put(dir_ / ".tmp", "9\n");
    fs::rename(dir_ / ".tmp", dir_ / "symbol_error"); // how the simulator writes
    EXPECT_EQ(readAll(d)["symbol_error"], "9\n");
    // Just changed: not trusted yet, so nothing is kept open that could go stale unseen.
    EXPECT_EQ(d.openDescriptors(), 1U);
    put(dir_ / ".tmp", "10\n");
    fs::rename(dir_ / ".tmp", dir_ / "symbol_error");
    EXPECT_EQ(readAll(d)["symbol_error"], "10\n");
}

TEST_F(CounterDirTest, FilesThatAppearOrDisappearAreFollowed)
{
    settle(dir_);
    CounterDir d(dir_.string());
    EXPECT_EQ(readAll(d).size(), 3U);
    put(dir_ / "port_rcv_errors", "1\n");
    fs::remove(dir_ / "link_downed");
    auto v = readAll(d);
    EXPECT_EQ(v.count("port_rcv_errors"), 1U);
    EXPECT_EQ(v.count("link_downed"), 0U);
}

TEST_F(CounterDirTest, ADirectoryThatGoesAwayAndComesBackIsFollowed)
{
    settle(dir_);
    CounterDir d(dir_.string());
    readAll(d);
    fs::remove_all(dir_); // the device unregisters
    int rc = 0;
    EXPECT_TRUE(readAll(d, &rc).empty());
    EXPECT_EQ(rc, ENOENT);
    EXPECT_EQ(d.openDescriptors(), 0U) << "nothing held for a directory that is gone";

    fs::create_directories(dir_); // registered again: another directory at the same path
    put(dir_ / "symbol_error", "0\n");
    settle(dir_);
    EXPECT_EQ(readAll(d, &rc), (std::map<std::string, std::string>{{"symbol_error", "0\n"}}));
    EXPECT_EQ(rc, 0);
}

// The path is not walked again on every read (through /sys/class links that walk cost more than
// the reads): a settled directory is asked whether it changed through the descriptor kept open,
// and its path is looked up again every kPathCheckEvery reads.
TEST_F(CounterDirTest, ADirectoryMovedAwayIsFollowedWithinAFewReads)
{
    settle(dir_);
    CounterDir d(dir_.string());
    readAll(d);
    // Moved away (sysfs renames netdev directories; a tree on a regular filesystem moves any):
    // read where it went for a few reads, then looked for at the path.
    fs::rename(dir_, dir_.parent_path() / "aside");
    int rc = -1;
    EXPECT_EQ(readAll(d, &rc).count("symbol_error"), 1U);
    EXPECT_EQ(rc, 0);
    unsigned reads = 1;
    while (rc == 0 && reads < CounterDir::kPathCheckEvery) {
        readAll(d, &rc);
        ++reads;
    }
    EXPECT_EQ(rc, ENOENT) << "after " << reads << " reads";
}

TEST_F(CounterDirTest, ADirectoryWhoseNameCanChangeIsLookedUpAtEveryRead)
{
    settle(dir_);
    CounterDir d(dir_.string(), 1);
    readAll(d);
    fs::rename(dir_, dir_.parent_path() / "aside");
    int rc = 0;
    EXPECT_TRUE(readAll(d, &rc).empty());
    EXPECT_EQ(rc, ENOENT);
}
