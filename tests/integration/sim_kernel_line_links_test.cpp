// `inject kernel-line` writes the node's journal without following a link: a symlink planted at
// var/log/journal (pointing out of the node) makes it fail naming the place, with nothing written
// where the link points and nothing left staged in the simulator's tmp dir.
#include "sim.hpp"
#include "support/capture_runs.hpp"
#include "support/temp_dir.hpp"

#include <gtest/gtest.h>

using namespace nicd;
namespace fs = std::filesystem;

namespace {

class SimKernelLineLinks : public test::TempDirTest {
protected:
    SimKernelLineLinks() : TempDirTest("kernel-line-links", test::TempOn::Memory) {}
};

std::vector<std::string> namesIn(const fs::path& dir)
{
    std::vector<std::string> names;
    for (const auto& e : fs::recursive_directory_iterator(dir))
        names.push_back(e.path().lexically_relative(dir).string());
    return names;
}

} // namespace

TEST_F(SimKernelLineLinks, ALinkAtTheJournalDirectoryIsRefused)
{
    const auto node = dir_ / "node";
    const auto outside = dir_ / "outside";
    sim::create(node, {});
    fs::create_directories(outside);
    fs::remove_all(node / "var/log/journal");
    fs::create_directories(node / "var/log");
    fs::create_directory_symlink(outside, node / "var/log/journal");
    fs::create_directories(node / "run/nicd-sim/tmp");

    std::string out;
    EXPECT_NE(test::sim({"inject", node.string(), "kernel-line", "mlx5_0", "fw-fatal"}, out), 0)
        << out;
    EXPECT_NE(out.find((node / "var/log/journal").string()), std::string::npos) << out;
    EXPECT_NE(out.find("a symlink or file is in the way"), std::string::npos) << out;
    EXPECT_EQ(namesIn(outside), std::vector<std::string>{}) << "nothing written out there";
    EXPECT_EQ(namesIn(node / "run/nicd-sim/tmp"), std::vector<std::string>{})
        << "nothing left staged";
}
