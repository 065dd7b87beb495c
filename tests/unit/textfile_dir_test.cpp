// The textfile's directory is made where missing (0755 whatever the umask) and opened one
// component at a time: a symlink its owner swaps in (the prometheus user owns
// /var/lib/prometheus) is refused, naming it, and nothing is written where it points; an
// admin's own link (root's, in a directory only root can write) is followed.
#include "paths/atomic_file.hpp"
#include "support/sim_tree.hpp"
#include "support/temp_dir.hpp"
#include "textfile/textfile_dir.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

using namespace nicd;
namespace fs = std::filesystem;

namespace {

class TextfileDirTest : public test::TempDirTest {
protected:
    // Opens `dir` as nicd does each cycle and writes nicd.prom into it.
    Result<void> writeInto(const fs::path& dir)
    {
        auto d = textfile::openTextfileDir(dir);
        if (!d.fd)
            return d.fd.error();
        return paths::writeFileAtomicallyAt(
            d.fd->get(), dir / "nicd.prom", [](const paths::ChunkWriter& w) { w("nicd_up 1\n"); },
            paths::Durability::Cache, 0644);
    }
};

} // namespace

TEST_F(TextfileDirTest, MissingDirectoriesAreMadeReadableByNodeExporter)
{
    const mode_t old = ::umask(077);
    auto d = textfile::openTextfileDir(dir_ / "prometheus/node-exporter");
    ::umask(old);
    ASSERT_TRUE(d.fd) << d.fd.error().message;
    EXPECT_EQ(d.created,
              (std::vector<fs::path>{dir_ / "prometheus", dir_ / "prometheus/node-exporter"}));
    for (const char* made : {"prometheus", "prometheus/node-exporter"})
        EXPECT_EQ(fs::status(dir_ / made).permissions(), fs::perms(0755)) << made;
    EXPECT_TRUE(textfile::openTextfileDir(dir_ / "prometheus/node-exporter").created.empty());
    EXPECT_TRUE(writeInto(dir_ / "prometheus/node-exporter"));
    EXPECT_EQ(test::readFile(dir_ / "prometheus/node-exporter/nicd.prom"), "nicd_up 1\n");
}

TEST_F(TextfileDirTest, ALinkItsOwnerSwapsInIsRefusedAndNothingChangesThere)
{
    const auto owned = dir_ / "prometheus"; // the prometheus user's, as /var/lib/prometheus is
    const auto textfile_dir = owned / "node-exporter";
    const auto elsewhere = dir_ / "etc-cron.d";
    fs::create_directories(textfile_dir);
    fs::create_directories(elsewhere);
    ASSERT_EQ(::chown(owned.c_str(), 65534, 65534), 0);
    ASSERT_TRUE(writeInto(textfile_dir));

    // The owner moves the directory away and puts a link to a directory of root's in its place.
    fs::rename(textfile_dir, owned / "moved");
    fs::create_directory_symlink(elsewhere, textfile_dir);
    auto written = writeInto(textfile_dir);
    ASSERT_FALSE(written);
    const auto& err = written.error().message;
    EXPECT_NE(err.find("cannot use the textfile directory " + textfile_dir.string() + ": " +
                       textfile_dir.string() +
                       " is a symlink in a directory that others can write (directory owner "
                       "uid 65534"),
              std::string::npos)
        << err;
    EXPECT_TRUE(fs::is_empty(elsewhere)) << "nothing written, made or changed where it points";
    EXPECT_EQ(fs::status(elsewhere).permissions(), fs::perms(0755));
}

TEST_F(TextfileDirTest, AnAdminsOwnLinkIsFollowed)
{
    const auto real = dir_ / "srv-metrics";
    fs::create_directories(real);
    fs::create_directories(dir_ / "admin");
    ASSERT_EQ(::chmod((dir_ / "admin").c_str(), 0755), 0);
    fs::create_directory_symlink(real, dir_ / "admin/node-exporter");
    EXPECT_TRUE(writeInto(dir_ / "admin/node-exporter"));
    EXPECT_EQ(test::readFile(real / "nicd.prom"), "nicd_up 1\n");
}
