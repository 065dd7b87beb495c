// A tree given with --root is data: its configuration's paths lead beneath it (".." above it or a
// symlink in it that leads out is an error in the usual shape, naming the key), and its
// PluginDirectory= is not used (a warning naming the file and line). On the host, neither.
#include "config/config.hpp"
#include "support/config_files.hpp"

#include <gtest/gtest.h>

using namespace nicd;
namespace fs = std::filesystem;

namespace {

class ConfigTree : public nicd::test::ConfigLoad {
protected:
    void SetUp() override
    {
        ConfigLoad::SetUp();
        tree_ = dir_ / "tree";
        fs::create_directories(tree_ / "var/lib/nicd");
        fs::create_directories(dir_ / "outside");
    }
    ConfigResult loadTree(const std::string& text)
    {
        write("nicd.conf", text);
        return loadConfig(dir_ / "nicd.conf", dir_ / "nicd.conf.d", HostPaths(tree_));
    }
    std::string onlyTreeError(const std::string& text)
    {
        auto r = loadTree(text);
        EXPECT_FALSE(r.config);
        EXPECT_EQ(r.errors.size(), 1U) << allErrors(r);
        return r.errors.empty() ? "" : r.errors.front().format();
    }

    fs::path tree_;
};

} // namespace

TEST_F(ConfigTree, DotDotOutOfTheTreeIsRefusedNamingTheKey)
{
    EXPECT_EQ(onlyTreeError("[daemon]\nStateDirectory=/../../x\n"),
              mainFile() + ":2: [daemon] StateDirectory=/../../x: leads out of --root " +
                  tree_.string() +
                  ": \"..\" climbs above it; a tree's configuration names only paths inside "
                  "the tree");
    EXPECT_NE(onlyTreeError("[provision]\nDriverReadyFile=/run/../../etc/shadow\n")
                  .find(":2: [provision] DriverReadyFile=/run/../../etc/shadow: leads out"),
              std::string::npos);
}

TEST_F(ConfigTree, ASymlinkOfTheTreeThatLeadsOutIsRefusedNamingIt)
{
    fs::create_directories(tree_ / "var/lib/prometheus");
    fs::create_directory_symlink(dir_ / "outside", tree_ / "var/lib/prometheus/node-exporter");
    auto error = onlyTreeError("[textfile]\nPath=/var/lib/prometheus/node-exporter/nicd.prom\n");
    EXPECT_NE(error.find(":2: [textfile] Path=/var/lib/prometheus/node-exporter/nicd.prom: "
                         "leads out of --root"),
              std::string::npos)
        << error;
    EXPECT_NE(error.find("var/lib/prometheus/node-exporter is a symlink to the absolute path"),
              std::string::npos)
        << error;
    fs::create_directory_symlink("../../../outside", tree_ / "var/lib/up");
    EXPECT_NE(onlyTreeError("[daemon]\nStateDirectory=/var/lib/up/nicd\n")
                  .find("through the symlink var/lib/up -> ../../../outside"),
              std::string::npos);
}

TEST_F(ConfigTree, ADefaultThatALinkOfTheTreeLeadsOutIsRefusedToo)
{
    // No line names it: nicd's own /var/lib/nicd, made a link out by whoever made the tree.
    fs::remove_all(tree_ / "var/lib/nicd");
    fs::create_directory_symlink(dir_ / "outside", tree_ / "var/lib/nicd");
    EXPECT_EQ(onlyTreeError("[provision]\nMode=off\n"),
              mainFile() +
                  ": [daemon] StateDirectory=/var/lib/nicd: (the default) leads out of "
                  "--root " +
                  tree_.string() + ": var/lib/nicd is a symlink to the absolute path " +
                  (dir_ / "outside").string() +
                  "; a tree's configuration names only paths inside the tree");
}

TEST_F(ConfigTree, PathsInsideTheTreeAreFine)
{
    fs::create_directory_symlink("nicd", tree_ / "var/lib/state");
    auto r = loadTree("[daemon]\nStateDirectory=/var/lib/state\n[textfile]\n"
                      "Path=/srv/metrics/nicd.prom\n[provision]\nDriverReadyFile=auto\n");
    ASSERT_TRUE(r.config) << allErrors(r);
    EXPECT_EQ(r.config->daemon.state_directory, "/var/lib/state") << "kept as written";
    EXPECT_TRUE(r.warnings.empty());
}

TEST_F(ConfigTree, ATreesPluginDirectoryIsNotUsedAndSaysWhere)
{
    auto r = loadTree("[daemon]\nPollIntervalMs=1000\nPluginDirectory=/tmp/evil\n");
    ASSERT_TRUE(r.config) << allErrors(r);
    EXPECT_EQ(r.config->daemon.plugin_directory, NICD_DEFAULT_PLUGIN_DIR);
    ASSERT_EQ(r.warnings.size(), 1U);
    EXPECT_EQ(r.warnings[0].format(),
              mainFile() + ":3: [daemon] PluginDirectory=/tmp/evil: not used under --root (a "
                           "tree's configuration never names code to load): plugins load from "
                           "--plugin-directory DIR, or else from " NICD_DEFAULT_PLUGIN_DIR);
    EXPECT_EQ(onlyTreeError("[daemon]\nPluginDirectory=relative\n"),
              mainFile() + ":2: [daemon] PluginDirectory=relative: expected an absolute path")
        << "still checked";
}

TEST_F(ConfigTree, OnTheHostNeitherApplies)
{
    Config c = loaded("[daemon]\nPluginDirectory=/opt/nicd/plugins\nStateDirectory=/../srv/x\n");
    EXPECT_EQ(c.daemon.plugin_directory, "/opt/nicd/plugins");
    EXPECT_EQ(c.daemon.state_directory, "/../srv/x") << "nothing is above / to leave to";
}
