// Replacing a file so that a reader (node_exporter, the next nicd start) sees the old content or
// the new one, never a mix, with no temporary file left behind, and a clear error otherwise.
#include "support/temp_dir.hpp"
#include "textfile/atomic_file.hpp"

#include <sys/stat.h>

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
    ASSERT_FALSE(writeFileAtomically(f, "one\n"));
    EXPECT_EQ(read(f), "one\n");
    ASSERT_FALSE(writeFileAtomically(f, "two\n"));
    EXPECT_EQ(read(f), "two\n");
    ASSERT_FALSE(writeFileAtomically(f, ""));
    EXPECT_EQ(read(f), "");
    EXPECT_EQ(entries(dir_), std::set<std::string>{"nicd.prom"});
}

TEST_F(AtomicFile, IsReadableByOthersWhateverTheUmask)
{
    auto old = ::umask(077);
    auto err = writeFileAtomically(dir_ / "nicd.prom", "x\n");
    ::umask(old);
    ASSERT_FALSE(err) << *err;
    EXPECT_EQ(fs::status(dir_ / "nicd.prom").permissions() & fs::perms::all,
              fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read |
                  fs::perms::others_read);
}

TEST_F(AtomicFile, AMissingDirectoryIsAClearErrorAndIsNotCreated)
{
    auto f = dir_ / "missing" / "nicd.prom";
    auto err = writeFileAtomically(f, "x");
    ASSERT_TRUE(err);
    EXPECT_TRUE(err->starts_with("cannot write " + f.string() + ": ")) << *err;
    EXPECT_NE(err->find("No such file or directory"), std::string::npos) << *err;
    EXPECT_FALSE(fs::exists(dir_ / "missing"));
}

TEST_F(AtomicFile, AFailedRenameLeavesNoTemporaryFile)
{
    auto f = dir_ / "nicd.prom";
    fs::create_directories(f / "occupied"); // a non-empty directory where the file should go
    auto err = writeFileAtomically(f, "x");
    ASSERT_TRUE(err);
    EXPECT_NE(err->find(f.string()), std::string::npos) << *err;
    EXPECT_NE(err->find("rename"), std::string::npos) << *err;
    EXPECT_EQ(entries(dir_), std::set<std::string>{"nicd.prom"});
    EXPECT_TRUE(fs::is_directory(f));
}

TEST_F(AtomicFile, ConcurrentWritersEachLeaveOneWholeVersion)
{
    auto f = dir_ / "state.json";
    std::string a(100000, 'a'), b(100000, 'b');
    std::thread other([&] {
        for (int i = 0; i < 50; ++i)
            EXPECT_FALSE(writeFileAtomically(f, a));
    });
    for (int i = 0; i < 50; ++i) {
        EXPECT_FALSE(writeFileAtomically(f, b));
        auto content = read(f);
        EXPECT_TRUE(content == a || content == b) << "a mix of " << content.size() << " bytes";
    }
    other.join();
    EXPECT_EQ(entries(dir_), std::set<std::string>{"state.json"});
}

TEST_F(AtomicFile, StreamedPiecesLandInOrder)
{
    auto f = dir_ / "nicd.prom";
    ASSERT_FALSE(writeFileAtomically(f, [](const ChunkWriter& write) {
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
    ASSERT_FALSE(writeFileAtomically(f, "old\n"));
    EXPECT_THROW(writeFileAtomically(f,
                                     [](const ChunkWriter& write) {
                                         write("half");
                                         throw std::logic_error("bad family");
                                     }),
                 std::logic_error);
    EXPECT_EQ(read(f), "old\n");
    EXPECT_EQ(entries(dir_), std::set<std::string>{"nicd.prom"});
}
