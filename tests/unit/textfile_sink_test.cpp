// The textfile sink writes where [textfile] Path= says (under --root), nothing with Enable=no;
// a failed write is tried again at the next publish, and a reload writes the next snapshot, both
// whatever IntervalMs= says.
#include "support/temp_dir.hpp"
#include "textfile/textfile_sink.hpp"

#include <fstream>

#include <gtest/gtest.h>

using namespace nicd;
namespace fs = std::filesystem;

namespace {

class TextfileSinkTest : public test::TempDirTest {
protected:
    void SetUp() override
    {
        TempDirTest::SetUp();
        paths_ = HostPaths(dir_);
        config_.textfile.path = "/var/lib/node-exporter/nicd.prom";
        config_.textfile.interval_ms = 60'000;
    }
    fs::path file() const { return dir_ / "var/lib/node-exporter/nicd.prom"; }

    HostPaths paths_{"/"};
    Config config_;
    Snapshot snap_;
};

constexpr uint64_t kSecond = 1'000'000;

} // namespace

TEST_F(TextfileSinkTest, WritesWherePathSaysUnderTheRoot)
{
    textfile::TextfileSink sink(paths_, config_);
    EXPECT_TRUE(sink.write(snap_));
    EXPECT_EQ(sink.path(), file());
    EXPECT_TRUE(fs::is_regular_file(file()));
}

TEST_F(TextfileSinkTest, EnableNoWritesNothing)
{
    config_.textfile.enable = false;
    textfile::TextfileSink sink(paths_, config_);
    EXPECT_TRUE(sink.write(snap_));
    sink.publish(snap_, kSecond);
    EXPECT_FALSE(fs::exists(file()));
}

TEST_F(TextfileSinkTest, AFailedWriteIsTriedAgainAtTheNextPublishWhateverTheInterval)
{
    fs::create_directories(file().parent_path().parent_path());
    std::ofstream(file().parent_path()) << "a file where the directory should be\n";
    textfile::TextfileSink sink(paths_, config_);
    sink.publish(snap_, kSecond);
    fs::remove(file().parent_path());
    sink.publish(snap_, 2 * kSecond); // the same verdicts, well within IntervalMs=
    EXPECT_TRUE(fs::is_regular_file(file()));
}

TEST_F(TextfileSinkTest, WithinTheIntervalTheSameVerdictsWaitUntilAReload)
{
    textfile::TextfileSink sink(paths_, config_);
    sink.publish(snap_, kSecond);
    ASSERT_TRUE(fs::remove(file()));
    sink.publish(snap_, 2 * kSecond);
    EXPECT_FALSE(fs::exists(file()));
    sink.configure(config_);
    sink.publish(snap_, 3 * kSecond);
    EXPECT_TRUE(fs::is_regular_file(file()));
}
