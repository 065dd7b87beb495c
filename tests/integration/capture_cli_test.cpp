// `nicd-sim capture` as a user runs it: what it refuses and says, --devices, the tarball of a
// 64-device node (under 5 MB, replayable once unpacked), and a real node (this machine, read-only)
// captured without failing whatever it lacks.
#include "sim.hpp"
#include "support/capture_replay.hpp"

#include <nlohmann/json.hpp>
#include <unistd.h>

#include <gtest/gtest.h>

using namespace nicd;
namespace fs = std::filesystem;

namespace {

class CaptureCli : public ::testing::Test {
protected:
    void SetUp() override { dir_ = test::captureTestDir("capture-cli"); }
    void TearDown() override { fs::remove_all(dir_); }

    // Names in dir_ (no staging directory may be left behind).
    std::set<std::string> entries() const
    {
        std::set<std::string> out;
        for (const auto& e : fs::directory_iterator(dir_))
            out.insert(e.path().filename().string());
        return out;
    }

    fs::path dir_;
};

} // namespace

TEST_F(CaptureCli, RefusesWhatItCannotDoAndSaysWhy)
{
    const auto src = dir_ / "src";
    sim::create(src, {});
    std::string out;
    fs::create_directories(dir_ / "busy");
    std::ofstream(dir_ / "busy/keep") << "mine\n";
    EXPECT_EQ(test::captureNode(src, dir_ / "busy", out), 1);
    EXPECT_NE(out.find("already exists and is not an empty directory"), std::string::npos) << out;
    EXPECT_EQ(test::readFile(dir_ / "busy/keep"), "mine\n") << "nothing of the user's is touched";

    EXPECT_EQ(test::captureNode(src, dir_ / "cap", out, {"--devices", "mlx5_0,mlx5_9"}), 1);
    EXPECT_NE(out.find("no RDMA device mlx5_9"), std::string::npos) << out;
    EXPECT_NE(out.find("mlx5_bond_0"), std::string::npos) << "the devices it has: " << out;
    EXPECT_EQ(entries(), (std::set<std::string>{"busy", "src"})) << "nothing left behind";

    EXPECT_NE(test::captureNode(src, dir_ / "cap", out, {"--samples", "0"}), 0);
    EXPECT_NE(out.find("--samples"), std::string::npos) << out;
}

TEST_F(CaptureCli, DevicesLimitsTheCaptureAndTheCaptureIsANode)
{
    const auto src = dir_ / "src";
    const auto cap = dir_ / "cap";
    sim::create(src, {});
    test::writeNodeConfig(src);
    std::string out;
    ASSERT_EQ(test::captureNode(src, cap, out, {"--devices", "mlx5_0,mlx5_bond_0,mlx5_5"}), 0)
        << out;
    std::string src_list, cap_list;
    ASSERT_EQ(test::sim({"list", src.string()}, src_list), 0);
    ASSERT_EQ(test::sim({"list", cap.string()}, cap_list), 0) << cap_list;
    std::string want;
    std::istringstream lines(src_list);
    for (std::string line; std::getline(lines, line);)
        if (line.starts_with("mlx5_0 ") || line.starts_with("mlx5_bond_0 ") ||
            line.starts_with("mlx5_5 "))
            want += line + "\n";
    EXPECT_EQ(cap_list, want) << "the same roles, states, netdevs and addresses";
    auto replay = test::once(cap);
    ASSERT_EQ(replay.rc, 0) << replay.output;
    EXPECT_NE(replay.textfile.find(R"(nicd_device_info{device="mlx5_5")"), std::string::npos);
    EXPECT_NE(replay.textfile.find(R"(function="vf")"), std::string::npos)
        << "the VF's PF came along, so it is still a VF";
    EXPECT_EQ(replay.textfile.find(R"(device="mlx5_1")"), std::string::npos);
    // Faults work on a capture as on any node.
    ASSERT_EQ(test::sim({"inject", cap.string(), "link-down", "mlx5_0"}, out), 0) << out;
    EXPECT_NE(test::once(cap).textfile.find(R"(nicd_port_state{device="mlx5_0",port="1"} 1)"),
              std::string::npos);
}

TEST_F(CaptureCli, SixtyFourDevicesFitInATarballUnderFiveMegabytes)
{
    const auto src = dir_ / "src";
    sim::CreateOptions o;
    o.devices = 64;
    sim::create(src, o);
    test::writeNodeConfig(src);
    std::string out;
    ASSERT_EQ(test::captureNode(src, dir_ / "cap", out,
                                {"--tar", "--samples", "2", "--interval-ms", "100"}),
              0)
        << out;
    const auto tarball = dir_ / "cap.tar.gz";
    ASSERT_TRUE(fs::exists(tarball)) << out;
    EXPECT_LT(fs::file_size(tarball), 5U * 1000 * 1000);
    // Unpacked elsewhere, it replays: the tarball holds the whole node.
    fs::create_directories(dir_ / "unpacked");
    ASSERT_EQ(test::run({"tar", "-xzf", tarball.string(), "-C", (dir_ / "unpacked").string()}, out),
              0)
        << out;
    auto replay = test::once(dir_ / "unpacked/cap");
    ASSERT_EQ(replay.rc, 0) << replay.output;
    size_t devices = 0;
    for (size_t p = replay.textfile.find("nicd_device_info{"); p != std::string::npos;
         p = replay.textfile.find("nicd_device_info{", p + 1))
        ++devices;
    EXPECT_EQ(devices, 64U);
}

TEST_F(CaptureCli, ARealNodeIsCapturedWhateverItLacks)
{
    // This machine, read-only: most likely no RDMA device, no devlink, perhaps no journal. The
    // capture still completes, says it is a real node's, and carries none of its names.
    const auto cap = dir_ / "cap";
    std::string out;
    ASSERT_EQ(test::run({NICD_SIM_BIN, "capture", cap.string()}, out), 0) << out;
    auto manifest =
        nlohmann::json::parse(test::readFile(cap / "run/nicd-sim/capture/manifest.json"));
    EXPECT_EQ(manifest["source"], "real node");
    EXPECT_EQ(manifest["identifiers"], "scrubbed");
    char host[256] = {};
    ASSERT_EQ(::gethostname(host, sizeof host - 1), 0);
    const std::string name = host;
    if (name.size() >= 4 && name != "localhost") {
        for (auto it = fs::recursive_directory_iterator(cap); it != fs::end(it); ++it) {
            if (it->is_regular_file() && !it->is_symlink()) {
                EXPECT_EQ(test::readFile(it->path()).find(name), std::string::npos) << it->path();
            }
        }
    }
    auto replay = test::once(cap);
    EXPECT_EQ(replay.rc, 0) << replay.output;
}
