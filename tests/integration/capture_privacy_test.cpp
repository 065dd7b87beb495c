// No identifier leaves the node by default: every MAC, GUID, IP address, hostname, machine ID and
// module serial number of the source node (read from the source itself, in the forms it has
// there) is absent from every byte of the capture (file contents, binary ones included, symlink
// targets and names) and of its tarball; the same original has the same fake everywhere; with
// --keep-identifiers they are all there. Hostnames are looked for in any case, with their domain,
// in a test that names the node itself (whatever this machine is called).
#include "capture/module_scrub.hpp"
#include "sim.hpp"
#include "support/capture_runs.hpp"
#include "support/journal_writer.hpp"
#include "support/temp_dir.hpp"

#include <nlohmann/json.hpp>

#include <cctype>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

using namespace nicd;
namespace fs = std::filesystem;

namespace {

std::string trimmed(std::string s)
{
    while (!s.empty() && (s.back() == '\n' || s.back() == ' '))
        s.pop_back();
    return s;
}

std::string withoutColons(std::string s)
{
    std::erase(s, ':');
    return s;
}

// "0100A8C0" (as /proc/net/route prints it) -> "192.168.0.1".
std::string dotted(const std::string& hex)
{
    auto v = std::stoul(hex, nullptr, 16);
    return std::to_string(v & 0xff) + "." + std::to_string((v >> 8) & 0xff) + "." +
           std::to_string((v >> 16) & 0xff) + "." + std::to_string((v >> 24) & 0xff);
}

// Every identifier of the source node, in the forms it takes there.
std::set<std::string> identifiersOf(const fs::path& src)
{
    std::set<std::string> ids = {"simnode", test::kTestMachineId};
    for (auto it = fs::recursive_directory_iterator(src / "sys"); it != fs::end(it); ++it) {
        if (!it->is_regular_file() || it->is_symlink())
            continue;
        auto name = it->path().filename().string();
        auto value = trimmed(test::readFile(it->path()));
        if (name == "address" && value != "00:00:00:00:00:00")
            ids.insert(value);
        if (name == "node_guid" || name == "sys_image_guid") {
            ids.insert(value);
            ids.insert(withoutColons(value));
        }
        if (name == "node_desc")
            ids.insert(value.substr(0, value.find(' '))); // the hostname
    }
    std::istringstream route(test::readFile(src / "proc/net/route"));
    std::string line;
    std::getline(route, line);
    while (std::getline(route, line)) {
        std::istringstream f(line);
        std::string iface, dest, gw;
        f >> iface >> dest >> gw;
        for (const auto& a : {dest, gw})
            if (a != "00000000") {
                ids.insert(a);
                ids.insert(dotted(a));
            }
    }
    for (const auto& e : fs::directory_iterator(src / "run/nicd-sim/module")) {
        auto bytes = test::readFile(e.path());
        auto serial = sim::capture::moduleSerial({bytes.begin(), bytes.end()});
        if (!serial.empty())
            ids.insert(serial);
    }
    return ids;
}

// Which of `ids` appear in the tree under `dir`: contents, symlink targets, names.
std::set<std::string> foundIn(const fs::path& dir, const std::set<std::string>& ids)
{
    std::set<std::string> found;
    auto look = [&](const std::string& text) {
        for (const auto& id : ids)
            if (text.find(id) != std::string::npos)
                found.insert(id);
    };
    for (auto it = fs::recursive_directory_iterator(dir); it != fs::end(it); ++it) {
        look(it->path().filename().string());
        if (it->is_symlink())
            look(fs::read_symlink(it->path()).string());
        else if (it->is_regular_file())
            look(test::readFile(it->path()));
    }
    return found;
}

class CapturePrivacy : public test::TempDirTest {
protected:
    CapturePrivacy() : TempDirTest("capture-privacy", test::TempOn::Memory) {}
    void SetUp() override
    {
        TempDirTest::SetUp();
        src_ = dir_ / "src";
        sim::create(src_, {});
        test::writeNodeConfig(src_);
        mac_ = trimmed(test::readFile(src_ / "sys/class/net/ens2f0np0/address"));
        std::string error;
        journal_ = test::writeJournal(
            src_, "node",
            {test::kernelEntry("mlx5_core 0000:3b:00.0 ens2f0np0: peer " + mac_ +
                                   " via 192.168.0.1 on simnode",
                               1700000000000000, "5b1f2c3d4e5f4a6b8c7d9e0f1a2b3c4d")},
            error);
        // Without systemd-journal-remote the kernel lines' part is not checked; with it, writing
        // them must work.
        ASSERT_TRUE(journal_ || !test::journalRemoteInstalled()) << error;
        auto said = test::once(src_); // what nicd said goes along: it must be scrubbed too
        ASSERT_EQ(said.rc, 0) << said.output;
        ids_ = identifiersOf(src_);
        ASSERT_GT(ids_.size(), 25U);
    }

    fs::path src_;
    std::string mac_;
    bool journal_ = false;
    std::set<std::string> ids_;
};

} // namespace

TEST_F(CapturePrivacy, NoIdentifierOfTheNodeIsInTheCaptureOrItsTarball)
{
    const auto cap = dir_ / "cap";
    std::string out;
    ASSERT_EQ(test::captureNode(src_, cap, out, {"--tar"}), 0) << out;
    EXPECT_EQ(foundIn(cap, ids_), std::set<std::string>{});
    std::string tar;
    ASSERT_EQ(test::run({"sh", "-c", "gzip -dc '" + cap.string() + ".tar.gz'"}, tar), 0);
    EXPECT_GT(tar.size(), 100000U);
    std::set<std::string> in_tar;
    for (const auto& id : ids_)
        if (tar.find(id) != std::string::npos)
            in_tar.insert(id);
    EXPECT_EQ(in_tar, std::set<std::string>{});
    auto manifest =
        nlohmann::json::parse(test::readFile(cap / "run/nicd-sim/capture/manifest.json"));
    EXPECT_EQ(manifest["identifiers"], "scrubbed");

    // One original, one fake, wherever it was.
    auto fake = trimmed(test::readFile(cap / "sys/class/net/ens2f0np0/address"));
    EXPECT_TRUE(fake.starts_with("02:00:00:")) << fake;
    if (journal_) {
        auto exported = test::readFile(cap / "run/nicd-sim/capture/kernel.export");
        EXPECT_NE(exported.find("peer " + fake + " via 198.18.0."), std::string::npos) << exported;
    }
}

TEST_F(CapturePrivacy, KeepIdentifiersKeepsThemAll)
{
    const auto cap = dir_ / "cap";
    std::string out;
    ASSERT_EQ(test::captureNode(src_, cap, out, {"--keep-identifiers"}), 0) << out;
    auto found = foundIn(cap, ids_);
    for (const auto& id :
         {mac_, trimmed(test::readFile(src_ / "sys/class/infiniband/mlx5_0/node_guid")),
          std::string("0100A8C0"), std::string("MT2401FT00001")})
        EXPECT_TRUE(found.contains(id)) << id;
    if (journal_) {
        EXPECT_TRUE(found.contains("simnode"));
        EXPECT_TRUE(found.contains("192.168.0.1"));
    }
    auto manifest =
        nlohmann::json::parse(test::readFile(cap / "run/nicd-sim/capture/manifest.json"));
    EXPECT_EQ(manifest["identifiers"], "kept");
}

TEST_F(CapturePrivacy, TheHostnameGoesInEveryCaseWithItsDomain)
{
    // The node's names as /etc and the kernel have them, and as an operator wrote them in nicd's
    // configuration (a drop-in named after the node).
    std::ofstream(src_ / "etc/hostname") << "GPU-Node-07.Rack3.Example.COM\n";
    fs::create_directories(src_ / "proc/sys/kernel");
    std::ofstream(src_ / "proc/sys/kernel/hostname") << "gpu-node-07\n";
    std::ofstream(src_ / "etc/nicd/nicd.conf", std::ios::app)
        << "# gpu-node-07.rack3.example.com (GPU-NODE-07), rack3.example.com\n";
    fs::create_directories(src_ / "etc/nicd/nicd.conf.d");
    std::ofstream(src_ / "etc/nicd/nicd.conf.d/50-gpu-node-07.conf") << "# Gpu-Node-07\n";
    const auto cap = dir_ / "cap";
    std::string out;
    ASSERT_EQ(test::captureNode(src_, cap, out, {"--tar"}), 0) << out;
    auto lower = [](std::string s) {
        for (auto& c : s)
            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        return s;
    };
    const std::set<std::string> names = {"gpu-node-07", "rack3"};
    std::set<std::string> found;
    for (auto it = fs::recursive_directory_iterator(cap); it != fs::end(it); ++it) {
        std::string text = it->path().filename().string();
        if (it->is_symlink())
            text += fs::read_symlink(it->path()).string();
        else if (it->is_regular_file())
            text += test::readFile(it->path());
        for (const auto& n : names)
            if (lower(text).find(n) != std::string::npos)
                found.insert(it->path().string());
    }
    EXPECT_EQ(found, std::set<std::string>{});
    std::string tar;
    ASSERT_EQ(test::run({"sh", "-c", "gzip -dc '" + cap.string() + ".tar.gz'"}, tar), 0);
    for (const auto& n : names)
        EXPECT_EQ(lower(tar).find(n), std::string::npos) << n << " in the tarball";
    EXPECT_TRUE(fs::exists(cap / "etc/nicd/nicd.conf.d/0001.conf")) << "renamed in its place";
    const auto conf = test::readFile(cap / "etc/nicd/nicd.conf");
    EXPECT_NE(conf.find(".domain-"), std::string::npos)
        << "the FQDN's fake keeps its shape: " << conf;
}
