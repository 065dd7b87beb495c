// `nicd-sim capture` as a user runs it: what it refuses and says, DIR with a trailing slash, the
// modes of DIR and its tarball, a source that is only read (nor anything outside it that its
// configuration names), a file that cannot be read, --devices, the tarball of a 64-device node
// (under 5 MB, replayable once unpacked), and a real node (this machine, read-only) captured
// without failing whatever it lacks.
#include "sim.hpp"
#include "support/capture_runs.hpp"
#include "support/temp_dir.hpp"

#include <nlohmann/json.hpp>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <map>

#include <gtest/gtest.h>

using namespace nicd;
namespace fs = std::filesystem;

namespace {

class CaptureCli : public test::TempDirTest {
protected:
    CaptureCli() : TempDirTest("capture-cli", test::TempOn::Memory) {}

    // Names in dir_ (no staging directory may be left behind).
    std::set<std::string> entries() const
    {
        std::set<std::string> out;
        for (const auto& e : fs::directory_iterator(dir_))
            out.insert(e.path().filename().string());
        return out;
    }
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
    for (const char* timeout : {"0", "601", "soon"}) {
        EXPECT_NE(test::captureNode(src, dir_ / "cap", out, {"--timeout", timeout}), 0) << timeout;
        EXPECT_NE(out.find("--timeout"), std::string::npos) << out;
    }
    EXPECT_EQ(entries(), (std::set<std::string>{"busy", "src"})) << "nothing left behind";
}

TEST_F(CaptureCli, ATrailingSlashNamesTheSameDirectoryAndTheCaptureIsPrivate)
{
    const auto src = dir_ / "src";
    sim::create(src, {});
    std::string out;
    ASSERT_EQ(test::captureNode(src, dir_.string() + "/cap/", out, {"--tar"}), 0) << out;
    struct stat st {};
    ASSERT_EQ(::stat((dir_ / "cap").c_str(), &st), 0) << out;
    EXPECT_EQ(st.st_mode & 0777, 0700U) << "only its owner reads a capture";
    EXPECT_TRUE(fs::exists(dir_ / "cap/run/nicd-sim/capture/manifest.json"));
    ASSERT_EQ(::stat((dir_ / "cap.tar.gz").c_str(), &st), 0) << "beside DIR: " << out;
    EXPECT_EQ(st.st_mode & 0777, 0600U);
    EXPECT_EQ(entries(), (std::set<std::string>{"cap", "cap.tar.gz", "src"}));

    // A new DIR whose tarball is already there: refused before anything is read, naming it.
    fs::rename(dir_ / "cap", dir_ / "first");
    const auto tarball = test::readFile(dir_ / "cap.tar.gz");
    EXPECT_EQ(test::captureNode(src, dir_ / "cap", out, {"--tar"}), 1);
    EXPECT_NE(out.find((dir_ / "cap.tar.gz").string() + " already exists"), std::string::npos)
        << out;
    EXPECT_EQ(test::readFile(dir_ / "cap.tar.gz"), tarball) << "the user's file is untouched";
    EXPECT_EQ(entries(), (std::set<std::string>{"cap.tar.gz", "first", "src"}));
}

TEST_F(CaptureCli, TheSourceIsOnlyRead)
{
    // A simulated node that no nicd-sim command ran on since it was made (no lock file): the
    // capture neither creates one nor changes any other file of it (a read-only mount captures).
    const auto src = dir_ / "src";
    sim::create(src, {});
    fs::remove(src / "run/nicd-sim/lock");
    auto snapshot = [&] {
        std::map<std::string, std::string> files;
        for (auto it = fs::recursive_directory_iterator(src); it != fs::end(it); ++it) {
            const auto rel = fs::relative(it->path(), src).string();
            if (it->is_symlink())
                files[rel] = "-> " + fs::read_symlink(it->path()).string();
            else if (it->is_regular_file())
                files[rel] = test::readFile(it->path());
            else
                files[rel] = "dir or fifo";
        }
        return files;
    };
    const auto before = snapshot();
    std::string out;
    ASSERT_EQ(test::captureNode(src, dir_ / "cap", out, {"--samples", "2", "--interval-ms", "50"}),
              0)
        << out;
    EXPECT_FALSE(fs::exists(src / "run/nicd-sim/lock")) << "no lock file made in the source";
    EXPECT_TRUE(snapshot() == before) << "the source changed";
}

TEST_F(CaptureCli, PathsTheConfigurationNamesOutsideTheSourceAreNotRead)
{
    // nicd.conf of the captured tree names a textfile above it ("/.." is "/" on the node) and its
    // state directory is a link out of the tree: neither file outside is taken along.
    const auto src = dir_ / "src";
    sim::create(src, {});
    test::writeNodeConfig(src, "[textfile]\nPath=/../outside/nicd.prom\n");
    fs::create_directories(dir_ / "outside");
    std::ofstream(dir_ / "outside/nicd.prom") << "secret_of_the_host 1\n";
    std::ofstream(dir_ / "outside/state.json") << "{\"secret_of_the_host\": 1}\n";
    fs::remove_all(src / "var/lib/nicd");
    fs::create_directories(src / "var/lib");
    fs::create_directory_symlink(dir_ / "outside", src / "var/lib/nicd");
    std::string out;
    ASSERT_EQ(test::captureNode(src, dir_ / "cap", out), 0) << out;
    for (auto it = fs::recursive_directory_iterator(dir_ / "cap"); it != fs::end(it); ++it) {
        if (it->is_regular_file() && !it->is_symlink()) {
            EXPECT_EQ(test::readFile(it->path()).find("secret_of_the_host"), std::string::npos)
                << it->path();
        }
    }
    EXPECT_FALSE(fs::exists(dir_ / "cap/run/nicd-sim/capture/said/state.json"));
    const auto manifest = test::readFile(dir_ / "cap/run/nicd-sim/capture/manifest.json");
    EXPECT_NE(manifest.find("leads outside the captured node"), std::string::npos) << manifest;
}

TEST_F(CaptureCli, AFileThatCannotBeReadIsNotedAndTheCaptureGoesOn)
{
    const auto src = dir_ / "src";
    sim::create(src, {});
    const auto fw = fs::canonical(src / "sys/class/infiniband/mlx5_0") / "fw_ver";
    fs::remove(fw);
    fs::create_directory(fw); // not a file: a broken tree (a link is kept as a link, not read)
    std::string out;
    ASSERT_EQ(test::captureNode(src, dir_ / "cap", out), 0) << out;
    auto manifest =
        nlohmann::json::parse(test::readFile(dir_ / "cap/run/nicd-sim/capture/manifest.json"));
    bool noted = false;
    for (const auto& u : manifest["unreadable"]["first"])
        noted = noted || (u["path"].get<std::string>().ends_with("mlx5_0/fw_ver") &&
                          !u["why"].get<std::string>().empty());
    EXPECT_TRUE(noted) << manifest["unreadable"].dump();
    EXPECT_TRUE(fs::exists(dir_ / "cap/sys/class/infiniband/mlx5_1/fw_ver")) << "the rest is read";
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
    ASSERT_LE(replay.rc, 2) /* the verdict of a capture of part of a node */ << replay.output;
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
