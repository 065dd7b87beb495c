// A tree given with --root (a capture from a customer's node, replayed for a bug report) is data:
// the PluginDirectory= of its configuration never gets code loaded (a plugin there that would
// mark its own loading never does; nicd says why, naming the file and line), a path of its
// configuration that leads out of it is refused naming the key (and nothing is made there), and
// the textfile is not written through a link that the textfile directory's owner planted.
#include "sim.hpp"
#include "support/daemon_fixture.hpp"
#include "support/process.hpp"

#include <unistd.h>

#include <fstream>
#include <map>

#include <gtest/gtest.h>

using namespace nicd;
namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {

// nicd with the configuration of the tree (no --config, no --plugin-directory).
class RootTreeTest : public test::DaemonTest {
protected:
    std::string tempTag() const override { return "root-tree"; }
    // Deep enough that "/../../x" stays in dir_.
    fs::path nodeDirectory() const override { return "a/b/node"; }

    void treeConfig(const std::string& text)
    {
        fs::create_directories(root_ / "etc/nicd");
        std::ofstream(root_ / "etc/nicd/nicd.conf") << text;
    }
    // nicd --root ROOT --no-dbus --once [extra...], its own configuration; the exit status.
    int once(std::vector<std::string> extra = {})
    {
        std::vector<std::string> argv{NICD_BIN, "--root", root_.string(), "--no-dbus", "--once"};
        argv.insert(argv.end(), extra.begin(), extra.end());
        test::Process nicd(argv, {{"NICD_TEST_MARKER", marker().string()}}, dir_ / "nicd.log");
        int rc = nicd.wait(60s);
        output_ = test::readFile(dir_ / "nicd.log");
        return rc;
    }
    // Where nicd's process may write (its state directory: Landlock allows no other), so that a
    // plugin that ran can mark it.
    fs::path marker() const { return root_ / "var/lib/nicd/plugin-was-loaded"; }

    std::string output_;
};

} // namespace

TEST_F(RootTreeTest, ATreesPluginDirectoryNeverGetsCodeLoaded)
{
    const std::string planted = NICD_TEST_PLUGIN_DIR "/marker";
    treeConfig("[provision]\nMode=off\n[daemon]\nPluginDirectory=" + planted + "\n");
    once();
    EXPECT_FALSE(fs::exists(marker())) << output_;
    EXPECT_NE(output_.find((root_ / "etc/nicd/nicd.conf").string() +
                           ":4: [daemon] PluginDirectory=" + planted +
                           ": not used under --root (a tree's configuration never names code to "
                           "load): plugins load from --plugin-directory DIR"),
              std::string::npos)
        << output_;

    // The same plugin, named on the command line by whoever runs nicd, is loaded (and marks it):
    // the test above could have seen it.
    once({"--plugin-directory", planted});
    EXPECT_TRUE(fs::exists(marker())) << output_;
}

TEST_F(RootTreeTest, AStateDirectoryOutOfTheTreeIsRefusedNamingTheKey)
{
    treeConfig("[provision]\nMode=off\n[daemon]\nStateDirectory=/../../x\n");
    EXPECT_EQ(once({"--plugin-directory", NICD_BUILD_PLUGIN_DIR}), 3) << output_;
    EXPECT_NE(output_.find("nicd.conf:4: [daemon] StateDirectory=/../../x: leads out of --root " +
                           root_.string()),
              std::string::npos)
        << output_;
    EXPECT_FALSE(fs::exists(dir_ / "a/x")) << "nothing made where it pointed";

    std::string out;
    EXPECT_EQ(test::run({NICD_BIN, "--root", root_.string(), "--check-config"}, out), 1);
    EXPECT_NE(out.find("[daemon] StateDirectory=/../../x: leads out of --root"), std::string::npos)
        << out;
}

TEST_F(RootTreeTest, TheTextfileIsNotWrittenThroughALinkItsDirectorysOwnerPlanted)
{
    // The prometheus user owns var/lib/prometheus and points node-exporter at a directory of
    // root's elsewhere in the tree (inside it, so the configuration's check lets it pass).
    const auto owned = root_ / "var/lib/prometheus";
    fs::remove_all(owned);
    fs::create_directories(owned);
    fs::create_directories(root_ / "etc/cron.d");
    fs::create_directory_symlink("../../../etc/cron.d", owned / "node-exporter");
    ASSERT_EQ(::chown(owned.c_str(), 65534, 65534), 0);
    treeConfig("[provision]\nMode=off\n");
    EXPECT_EQ(once({"--plugin-directory", NICD_BUILD_PLUGIN_DIR}), 3) << output_;
    EXPECT_NE(output_.find((owned / "node-exporter").string() +
                           " is a symlink in a directory that others can write"),
              std::string::npos)
        << output_;
    EXPECT_TRUE(fs::is_empty(root_ / "etc/cron.d")) << "nothing written where it points";
}

// The simulator's DCB files stand in for rtnetlink under --root: a link planted at
// run/nicd-sim/dcb (to a directory outside the tree, holding files named like the netdevs) is
// not followed, neither by the plugins' reads and writes nor by the Landlock rule, and nothing
// outside is read or rewritten.
TEST_F(RootTreeTest, TheSimulatorsDcbFilesAreNotReachedThroughALink)
{
    const auto dcb = root_ / "run/nicd-sim/dcb";
    const auto outside = dir_ / "outside";
    fs::rename(dcb, outside);
    fs::create_directory_symlink(outside, dcb);
    std::map<std::string, std::string> before;
    for (const auto& e : fs::directory_iterator(outside))
        before[e.path().filename().string()] = test::readFile(e.path());
    ASSERT_FALSE(before.empty());
    treeConfig("[provision]\nMode=enforce\n");
    EXPECT_LE(once({"--plugin-directory", NICD_BUILD_PLUGIN_DIR}), 2) << output_; // it judged
    EXPECT_NE(output_.find(dcb.string() + ": a symlink on the way: refused"), std::string::npos)
        << output_;
    std::map<std::string, std::string> after;
    for (const auto& e : fs::directory_iterator(outside))
        after[e.path().filename().string()] = test::readFile(e.path());
    EXPECT_EQ(after, before) << "a file outside the tree was rewritten";
}
