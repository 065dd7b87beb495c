// Paths beneath a root never leave it: ".." above the root and symlinks that lead out (absolute
// ones, relative ones that climb) are refused with the component named, links that stay inside
// are followed where allowed; the kernel's openat2 and the component walk that stands in for it
// agree; and in a directory others can write a link is not followed (systemd-tmpfiles' rule).
#include "paths/beneath.hpp"
#include "support/temp_dir.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>

#include <gtest/gtest.h>

using namespace nicd::paths;
namespace fs = std::filesystem;

namespace {

class PathsBeneath : public nicd::test::TempDirTest {
protected:
    void SetUp() override
    {
        TempDirTest::SetUp();
        root_ = dir_ / "root";
        fs::create_directories(root_ / "var/lib/nicd");
        fs::create_directories(root_ / "run");
        fs::create_directories(dir_ / "outside");
        std::ofstream(dir_ / "outside/secret") << "secret\n";
        std::ofstream(root_ / "var/lib/nicd/state.json") << "{}\n";
        top_ = Fd(::open(root_.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
        ASSERT_TRUE(top_.valid());
    }

    std::optional<std::string> resolve(std::string_view path)
    {
        auto resolved = resolveBeneath(root_, path);
        why_ = resolved ? "" : resolved.error().message;
        return resolved ? std::optional<std::string>(*resolved) : std::nullopt;
    }

    // {errno or 0, what the walk says} of openBeneath and of the walk alone, which must agree.
    int openErr(std::string_view rel, int flags, Links links)
    {
        Fd fd(openBeneath(top_.get(), rel, flags, links));
        const int kernel = fd.valid() ? 0 : errno;
        WalkOptions o;
        o.links = links;
        o.flags = flags;
        auto w = walkBeneath(top_.get(), rel, o);
        EXPECT_EQ(w.err, kernel) << rel << ": the walk and openat2 disagree (" << w.why << ")";
        return kernel;
    }

    fs::path root_;
    Fd top_;
    std::string why_;
};

} // namespace

TEST_F(PathsBeneath, PlainPathsAndMissingTailsResolveAsWritten)
{
    EXPECT_EQ(resolve("/var/lib/nicd"), "var/lib/nicd");
    EXPECT_EQ(resolve("/var/lib/nicd/state.json"), "var/lib/nicd/state.json");
    EXPECT_EQ(resolve("/var/lib/prometheus/node-exporter/nicd.prom"),
              "var/lib/prometheus/node-exporter/nicd.prom")
        << "a directory nicd makes later";
    EXPECT_EQ(resolve("/var/lib/../lib/./nicd"), "var/lib/nicd") << "\"..\" inside is fine";
    EXPECT_EQ(resolve("/"), "");
}

TEST_F(PathsBeneath, DotDotAboveTheRootIsRefused)
{
    EXPECT_EQ(resolve("/../../x"), std::nullopt);
    EXPECT_NE(why_.find("\"..\" climbs above it"), std::string::npos) << why_;
    EXPECT_EQ(resolve("/var/lib/../../../x"), std::nullopt);
    EXPECT_EQ(resolve("/var/missing/../../../x"), std::nullopt) << "not even past a missing one";
}

TEST_F(PathsBeneath, AnAbsoluteSymlinkLeadsOutAndIsNamed)
{
    fs::create_directory_symlink(dir_ / "outside", root_ / "var/lib/out");
    EXPECT_EQ(resolve("/var/lib/out/state.json"), std::nullopt);
    EXPECT_NE(
        why_.find("var/lib/out is a symlink to the absolute path " + (dir_ / "outside").string()),
        std::string::npos)
        << why_;
}

TEST_F(PathsBeneath, ARelativeSymlinkThatClimbsOutIsRefusedNamingIt)
{
    fs::create_directory_symlink("../../../outside", root_ / "var/lib/up");
    EXPECT_EQ(resolve("/var/lib/up/secret"), std::nullopt);
    EXPECT_NE(why_.find("through the symlink var/lib/up -> ../../../outside"), std::string::npos)
        << why_;
}

TEST_F(PathsBeneath, SymlinksThatStayInsideAreFollowed)
{
    fs::create_directory_symlink("../run", root_ / "var/run");
    EXPECT_EQ(resolve("/var/run/mellanox/.driver-ready"), "run/mellanox/.driver-ready");
    fs::create_directory_symlink("nicd", root_ / "var/lib/nicd-link");
    EXPECT_EQ(resolve("/var/lib/nicd-link/state.json"), "var/lib/nicd/state.json");
}

TEST_F(PathsBeneath, OpeningRefusesEveryLinkOrOnlyThoseThatLeave)
{
    fs::create_directory_symlink("nicd", root_ / "var/lib/inside");
    fs::create_directory_symlink("../../../outside", root_ / "var/lib/up");
    fs::create_directory_symlink(dir_ / "outside", root_ / "var/lib/abs");
    EXPECT_EQ(openErr("var/lib/nicd/state.json", O_RDONLY, Links::Refuse), 0);
    EXPECT_EQ(openErr("var/lib/inside/state.json", O_RDONLY, Links::Refuse), ELOOP);
    EXPECT_EQ(openErr("var/lib/inside/state.json", O_RDONLY, Links::Beneath), 0);
    EXPECT_EQ(openErr("var/lib/up/secret", O_RDONLY, Links::Beneath), EXDEV);
    EXPECT_EQ(openErr("var/lib/abs/secret", O_RDONLY, Links::Beneath), EXDEV);
    EXPECT_EQ(openErr("../outside/secret", O_RDONLY, Links::Beneath), EXDEV);
    // A trailing link is opened as itself with O_PATH|O_NOFOLLOW, and refused otherwise.
    EXPECT_EQ(openErr("var/lib/abs", O_PATH | O_NOFOLLOW, Links::Refuse), 0);
    EXPECT_EQ(openErr("var/lib/abs", O_RDONLY | O_NOFOLLOW, Links::Refuse), ELOOP);
    EXPECT_EQ(openErr("var/lib/absent", O_RDONLY, Links::Refuse), ENOENT);
}

TEST_F(PathsBeneath, TheWalkCreatesMissingDirectoriesWithTheirModeWhateverTheUmask)
{
    const mode_t old = ::umask(077);
    WalkOptions o;
    o.flags = O_RDONLY | O_DIRECTORY;
    o.create = 0755;
    auto w = walkBeneath(top_.get(), "var/lib/prometheus/node-exporter", o);
    ::umask(old);
    ASSERT_TRUE(w.ok()) << w.why;
    EXPECT_EQ(w.created,
              (std::vector<std::string>{"var/lib/prometheus", "var/lib/prometheus/node-exporter"}));
    EXPECT_EQ(fs::status(root_ / "var/lib/prometheus/node-exporter").permissions(),
              fs::perms(0755));
}

TEST_F(PathsBeneath, ALinkInADirectoryOthersCanWriteIsNotFollowed)
{
    // /var/lib/prometheus belongs to the prometheus user: a link it put there is refused; the
    // same link where only root can write (an admin's layout) is followed.
    fs::create_directories(root_ / "var/lib/prometheus");
    fs::create_directory_symlink(dir_ / "outside", root_ / "var/lib/prometheus/node-exporter");
    ASSERT_EQ(::chown((root_ / "var/lib/prometheus").c_str(), 65534, 65534), 0);
    Fd slash(::open("/", O_PATH | O_DIRECTORY | O_CLOEXEC));
    const auto path = (root_ / "var/lib/prometheus/node-exporter").string();
    WalkOptions o;
    o.links = Links::RootOwned;
    o.flags = O_RDONLY | O_DIRECTORY;
    auto refused = walkBeneath(slash.get(), path, o);
    EXPECT_EQ(refused.err, EPERM);
    EXPECT_NE(refused.why.find("var/lib/prometheus/node-exporter is a symlink in a directory "
                               "that others can write (directory owner uid 65534"),
              std::string::npos)
        << refused.why;
    ASSERT_EQ(::chown((root_ / "var/lib/prometheus").c_str(), 0, 0), 0);
    ASSERT_EQ(::chmod((root_ / "var/lib/prometheus").c_str(), 0777), 0);
    EXPECT_EQ(walkBeneath(slash.get(), path, o).err, EPERM) << "writable by others, even if root's";
    ASSERT_EQ(::chmod((root_ / "var/lib/prometheus").c_str(), 0755), 0);
    auto followed = walkBeneath(slash.get(), path, o);
    ASSERT_TRUE(followed.ok()) << followed.why;
    EXPECT_EQ("/" + followed.rel, (dir_ / "outside").string());
}
