// A capture reads its source without following a link: a symlink planted where the capture reads
// a file (an attribute of a device, a drop-in of nicd's configuration), pointing at a secret
// outside the source, never brings the secret's bytes into the capture or its tarball: a sysfs
// attribute's link is kept as a link that stays inside the capture, a host file's is noted and
// left out; sysfs's own links stay links; a class link that leads out of the source's sys/ (to
// a user's directory) is not walked.
#include "sim.hpp"
#include "support/capture_runs.hpp"
#include "support/temp_dir.hpp"

#include <nlohmann/json.hpp>

#include <fstream>

#include <gtest/gtest.h>

using namespace nicd;
namespace fs = std::filesystem;

namespace {

constexpr const char* kSecret = "SECRET-TOKEN-4242";

class CaptureLinks : public test::TempDirTest {
protected:
    CaptureLinks() : TempDirTest("capture-links", test::TempOn::Memory) {}
    void SetUp() override
    {
        TempDirTest::SetUp();
        src_ = dir_ / "src";
        sim::create(src_, {});
        test::writeNodeConfig(src_);
        fs::create_directories(dir_ / "outside");
        std::ofstream(dir_ / "outside/fw_ver") << kSecret << "\n";
        std::ofstream(dir_ / "outside/node_guid") << kSecret << "\n";
    }

    // Every place under `dir` (names, link targets, contents) and the tarball that holds `text`.
    std::vector<std::string> holding(const fs::path& dir, const std::string& text) const
    {
        std::vector<std::string> found;
        for (auto it = fs::recursive_directory_iterator(dir); it != fs::end(it); ++it) {
            std::string seen = it->path().filename().string();
            if (it->is_symlink())
                seen += fs::read_symlink(it->path()).string();
            else if (it->is_regular_file())
                seen += test::readFile(it->path());
            if (seen.find(text) != std::string::npos)
                found.push_back(it->path().string());
        }
        std::string tar;
        EXPECT_EQ(test::run({"sh", "-c", "gzip -dc '" + dir.string() + ".tar.gz'"}, tar), 0);
        if (tar.find(text) != std::string::npos)
            found.push_back(dir.string() + ".tar.gz");
        return found;
    }

    fs::path src_;
};

} // namespace

TEST_F(CaptureLinks, APlantedLinkIsNeverReadThrough)
{
    const auto ib = fs::canonical(src_ / "sys/class/infiniband/mlx5_0");
    fs::remove(ib / "fw_ver");
    fs::create_symlink(dir_ / "outside/fw_ver", ib / "fw_ver");
    fs::create_directories(src_ / "etc/nicd/nicd.conf.d");
    fs::create_symlink(dir_ / "outside/fw_ver", src_ / "etc/nicd/nicd.conf.d/50-site.conf");

    const auto cap = dir_ / "cap";
    std::string out;
    ASSERT_EQ(test::captureNode(src_, cap, out, {"--tar"}), 0) << out;
    EXPECT_EQ(holding(cap, kSecret), std::vector<std::string>{});

    // The attribute is a link in the capture too, to a place inside it (nothing there).
    const auto kept = cap / ib.lexically_relative(src_) / "fw_ver";
    ASSERT_TRUE(fs::is_symlink(kept)) << out;
    const auto to = (kept.parent_path() / fs::read_symlink(kept)).lexically_normal();
    EXPECT_EQ(to.string().rfind(cap.string() + "/", 0), 0U) << to;
    // The drop-in is left out, saying why: a replay's configuration must not dangle.
    EXPECT_FALSE(fs::exists(fs::symlink_status(cap / "etc/nicd/nicd.conf.d/0001.conf")));
    const auto manifest = test::readFile(cap / "run/nicd-sim/capture/manifest.json");
    EXPECT_NE(manifest.find("not followed"), std::string::npos) << manifest;
    // sysfs's own links are links, as in the source.
    for (const char* link : {"sys/class/infiniband/mlx5_0", "sys/class/net/ens1f0np0"}) {
        ASSERT_TRUE(fs::is_symlink(cap / link)) << link;
        EXPECT_EQ(fs::read_symlink(cap / link), fs::read_symlink(src_ / link)) << link;
    }
}

TEST_F(CaptureLinks, AClassLinkThatLeadsOutOfSysIsNotWalked)
{
    // A user's directory of the source (a real node's /, or its tree): what a device directory
    // holds is read only from sysfs.
    fs::create_directories(src_ / "home/user");
    fs::copy(dir_ / "outside/fw_ver", src_ / "home/user/fw_ver");
    fs::create_directory_symlink("../../../home/user", src_ / "sys/class/infiniband/mlx5_9");
    const auto cap = dir_ / "cap";
    std::string out;
    ASSERT_EQ(test::captureNode(src_, cap, out, {"--tar"}), 0) << out;
    EXPECT_EQ(holding(cap, kSecret), std::vector<std::string>{});
    auto manifest =
        nlohmann::json::parse(test::readFile(cap / "run/nicd-sim/capture/manifest.json"));
    EXPECT_NE(manifest.dump().find("leads nowhere"), std::string::npos) << manifest.dump(1);
}
