// Landlock as nicd applies it to itself, in a child process (it cannot be undone): writes land
// beneath the directories named, and nowhere else (no file written, made or removed, no
// directory made, no rename out), whatever the uid; an open-only directory lets existing files be
// opened for writing and nothing more; reads stay open; a process forked before (nicd's knob
// writer) keeps its rights.
#include "privilege/landlock.hpp"
#include "support/temp_dir.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <functional>

#include <gtest/gtest.h>

using namespace nicd;
using namespace nicd::privilege;
namespace fs = std::filesystem;

namespace {

// What `body` prints in a forked child, one line per check.
std::string inChild(const std::function<std::string()>& body)
{
    int p[2];
    if (::pipe(p) != 0)
        return "pipe failed";
    pid_t pid = ::fork();
    if (pid == 0) {
        ::close(p[0]);
        std::string out = body();
        (void)!::write(p[1], out.data(), out.size());
        ::_exit(0);
    }
    ::close(p[1]);
    std::string out;
    char buf[4096];
    for (ssize_t n; (n = ::read(p[0], buf, sizeof buf)) > 0;)
        out.append(buf, static_cast<size_t>(n));
    ::close(p[0]);
    ::waitpid(pid, nullptr, 0);
    return out;
}

std::string outcome(const char* what, int rc)
{
    return std::string(what) + ": " + (rc == 0 ? "ok" : std::strerror(errno)) + "\n";
}

int writeFile(const fs::path& p)
{
    int fd = ::open(p.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        return -1;
    bool ok = ::write(fd, "1\n", 2) == 2;
    ::close(fd);
    return ok ? 0 : -1;
}

class Landlock : public test::TempDirTest {
protected:
    void SetUp() override
    {
        TempDirTest::SetUp();
        auto probe = inChild([] {
            auto r = restrictWritesTo({});
            return r.enforced ? std::string() : r.why_not;
        });
        if (!probe.empty())
            GTEST_SKIP() << probe;
        for (const char* d : {"state", "other", "dev"})
            fs::create_directories(dir_ / d);
        std::ofstream(dir_ / "other/knob") << "0\n";
        std::ofstream(dir_ / "dev/uverbs0") << "";
    }
};

} // namespace

TEST_F(Landlock, WritesLandOnlyBeneathTheNamedDirectories)
{
    const fs::path d = dir_;
    auto out = inChild([d] {
        auto r = restrictWritesTo({{d / "state"}, {d / "dev", true}, {d / "missing"}});
        std::string s = r.enforced ? "enforced\n" : "not enforced: " + r.why_not + "\n";
        s += "missing: " + (r.missing.empty() ? "" : r.missing[0].string()) + "\n";
        s += outcome("state write", writeFile(d / "state/state.json"));
        s += outcome("state mkdir", ::mkdir((d / "state/sub").c_str(), 0755));
        s += outcome("state rename",
                     ::rename((d / "state/state.json").c_str(), (d / "state/state.old").c_str()));
        s += outcome("state unlink", ::unlink((d / "state/state.old").c_str()));
        s += outcome("other write", writeFile(d / "other/knob"));
        s += outcome("other create", writeFile(d / "other/new"));
        s += outcome("other mkdir", ::mkdir((d / "other/sub").c_str(), 0755));
        s += outcome("other unlink", ::unlink((d / "other/knob").c_str()));
        s += outcome("other truncate", ::truncate((d / "other/knob").c_str(), 0));
        s += outcome("other symlink", ::symlink("x", (d / "other/link").c_str()));
        int fd = ::open((d / "dev/uverbs0").c_str(), O_RDWR | O_CLOEXEC);
        s += outcome("dev open", fd < 0 ? -1 : ::close(fd));
        s += outcome("dev create", writeFile(d / "dev/uverbs1"));
        fd = ::open((d / "other/knob").c_str(), O_RDONLY | O_CLOEXEC);
        s += outcome("other read", fd < 0 ? -1 : ::close(fd));
        return s;
    });
    const std::string denied = std::strerror(EACCES);
    for (const std::string& line : std::vector<std::string>{
             "enforced", "missing: " + (dir_ / "missing").string(), "state write: ok",
             "state mkdir: ok", "state rename: ok", "state unlink: ok", "other write: " + denied,
             "other create: " + denied, "other mkdir: " + denied, "other unlink: " + denied,
             "other truncate: " + denied, "other symlink: " + denied, "dev open: ok",
             "dev create: " + denied, "other read: ok"})
        EXPECT_NE(out.find(line + "\n"), std::string::npos) << line << "\n" << out;
    std::ifstream in(dir_ / "other/knob");
    EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), "0\n");
}

TEST_F(Landlock, AProcessForkedBeforeKeepsItsRights)
{
    const fs::path d = dir_;
    auto out = inChild([d] {
        int p[2];
        if (::pipe(p) != 0)
            return std::string("pipe failed");
        pid_t writer = ::fork(); // forked first, as nicd forks its knob writer
        if (writer == 0) {
            char c;
            (void)!::read(p[0], &c, 1); // until the parent is restricted
            ::_exit(writeFile(d / "other/knob") == 0 ? 0 : 1);
        }
        auto r = restrictWritesTo({{d / "state"}});
        std::string s = outcome("restricted", r.enforced ? 0 : -1);
        s += outcome("parent write", writeFile(d / "other/knob"));
        (void)!::write(p[1], "x", 1);
        int status = 0;
        ::waitpid(writer, &status, 0);
        s += std::string("writer write: ") +
             (WIFEXITED(status) && WEXITSTATUS(status) == 0 ? "ok" : "failed") + "\n";
        return s;
    });
    EXPECT_NE(out.find("restricted: ok\n"), std::string::npos) << out;
    EXPECT_NE(out.find("parent write: " + std::string(std::strerror(EACCES))), std::string::npos)
        << out;
    EXPECT_NE(out.find("writer write: ok\n"), std::string::npos) << out;
}

TEST(LandlockAccess, WritesKnownToEachAbi)
{
    EXPECT_EQ(writeAccessFor(0), 0U);
    EXPECT_LT(writeAccessFor(1), writeAccessFor(2)); // REFER
    EXPECT_LT(writeAccessFor(2), writeAccessFor(3)); // TRUNCATE
    EXPECT_EQ(writeAccessFor(3), writeAccessFor(7));
    EXPECT_EQ(writeAccessFor(1) & 1U, 0U) << "execute stays allowed";
    EXPECT_EQ(writeAccessFor(7) & (1U << 2 | 1U << 3), 0U) << "reads stay allowed";
}
