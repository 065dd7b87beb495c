// The SDK's small-file reader and writer (nicd/plugin/sdk/small_file.h): a file is read and written
// whole, and a link in its place is refused, never followed: a --root tree (a capture) could
// otherwise point a QoS attribute at a root-only file, whose text a report would quote, or make
// the simulated rdma_cm group create a file wherever a dangling link points.
#include "support/temp_dir.hpp"

#include <nicd/plugin/sdk/small_file.h>

#include <sys/stat.h>

#include <cerrno>
#include <fstream>

#include <gtest/gtest.h>

namespace fs = std::filesystem;
namespace sdk = nicd::plugin::sdk;

namespace {
class SmallFile : public nicd::test::TempDirTest {
protected:
    SmallFile() : TempDirTest("small-file") {}
};
} // namespace

TEST_F(SmallFile, ARegularFileIsReadAndWrittenWhole)
{
    const fs::path f = dir_ / "default_roce_tos";
    ASSERT_TRUE(sdk::writeSmallFile(f, "106\n", true));
    std::string text;
    ASSERT_TRUE(sdk::readSmallFile(f, text));
    EXPECT_EQ(text, "106\n");
}

TEST_F(SmallFile, ALinkInTheFilesPlaceIsRefusedNotFollowed)
{
    const fs::path secret = dir_ / "secret";
    std::ofstream(secret) << "root:$6$hash\n";
    fs::create_symlink(secret, dir_ / "enable_cc");
    std::string text;
    auto s = sdk::readSmallFile(dir_ / "enable_cc", text);
    EXPECT_FALSE(s);
    EXPECT_EQ(s.sys_errno, ELOOP) << s.message;
    EXPECT_TRUE(text.empty());

    // A dangling link where the simulated group's file would be created.
    fs::create_symlink(dir_ / "elsewhere", dir_ / "default_roce_tos");
    s = sdk::writeSmallFile(dir_ / "default_roce_tos", "0\n", true);
    EXPECT_FALSE(s);
    EXPECT_EQ(s.sys_errno, ELOOP) << s.message;
    EXPECT_FALSE(fs::exists(dir_ / "elsewhere"));
    s = sdk::writeSmallFile(dir_ / "enable_cc", "0\n", false);
    EXPECT_FALSE(s);
    std::string kept;
    ASSERT_TRUE(sdk::readSmallFile(secret, kept));
    EXPECT_EQ(kept, "root:$6$hash\n");
}

// A FIFO where an attribute should be (planted in a --root tree or a debugfs directory) fails at
// once instead of blocking the read until someone writes to it.
TEST_F(SmallFile, AFifoInTheFilesPlaceFailsAtOnce)
{
    const fs::path f = dir_ / "cc_config";
    ASSERT_EQ(::mkfifo(f.c_str(), 0600), 0);
    std::string text;
    auto s = sdk::readSmallFile(f, text);
    EXPECT_FALSE(s);
    EXPECT_EQ(s.message, f.string() + ": not a regular file");
    EXPECT_TRUE(text.empty());
}

// Beneath a --root tree: the tree's own relative links lead to its files, but a directory on the
// way that is a link out of the tree (a planted sys/kernel/debug) is refused, its file unread.
TEST_F(SmallFile, BeneathARootALinkOutOfTheTreeIsRefused)
{
    const auto root = dir_ / "node";
    fs::create_directories(root / "sys/devices/x");
    std::ofstream(root / "sys/devices/x/enable_cc") << "1\n";
    fs::create_directories(root / "sys/class");
    fs::create_directory_symlink("../devices/x", root / "sys/class/x");
    std::string text;
    ASSERT_TRUE(sdk::readSmallFileBeneath(root, root / "sys/class/x/enable_cc", text));
    EXPECT_EQ(text, "1\n");

    fs::create_directories(dir_ / "elsewhere");
    std::ofstream(dir_ / "elsewhere/enable_cc") << "secret\n";
    fs::create_directories(root / "sys/kernel");
    fs::create_directory_symlink(dir_ / "elsewhere", root / "sys/kernel/debug");
    text.clear();
    auto s = sdk::readSmallFileBeneath(root, root / "sys/kernel/debug/enable_cc", text);
    EXPECT_FALSE(s);
    EXPECT_EQ(s.message, (root / "sys/kernel/debug/enable_cc").string() +
                             ": a symlink on the way leads out of " + root.string());
    EXPECT_TRUE(text.empty());
}

// readRegularFile with a large limit (the state file's 64 MiB): a file of any size up to the limit
// comes back whole, one byte more is refused, and an empty file is empty.
TEST_F(SmallFile, ARegularFileIsReadWholeUpToItsLimitAndRefusedPastIt)
{
    const fs::path f = dir_ / "state.json";
    for (size_t size : {size_t{0}, size_t{1}, size_t{4095}, size_t{4097}, size_t{300'000}}) {
        std::string body(size, 'x');
        for (size_t i = 0; i < size; i += 97)
            body[i] = static_cast<char>('a' + i % 26);
        std::ofstream(f, std::ios::trunc | std::ios::binary) << body;
        std::string text = "stale";
        ASSERT_TRUE(sdk::readRegularFile(f, size_t{64} << 20, text)) << size;
        EXPECT_EQ(text, body) << size;
        ASSERT_TRUE(sdk::readRegularFile(f, size, text)) << "exactly the limit: " << size;
        EXPECT_EQ(text.size(), size);
        if (size > 0) {
            auto refused = sdk::readRegularFile(f, size - 1, text);
            EXPECT_FALSE(refused) << size;
            EXPECT_EQ(refused.sys_errno, EFBIG) << size;
        }
    }
}
