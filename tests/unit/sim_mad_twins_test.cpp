// The simulated node's management datagram devices (readiness_twins.hpp: ib_umad's umad<K> and
// issm<K> per port, their class links and /dev/infiniband nodes), and umad-missing, which takes a
// device's nodes away and puts them back.
#include "readiness_twins.hpp"
#include "sim.hpp"
#include "support/sim_tree.hpp"

#include <gtest/gtest.h>

namespace fs = std::filesystem;
using namespace nicd;
using test::readFile;

namespace {

class SimMadTest : public test::SimDirTest {
protected:
    void SetUp() override
    {
        SimDirTest::SetUp();
        sim::create(dir_, {});
    }
    test::TreeSnapshot snap()
    {
        auto s = test::snapshotTree(dir_);
        std::erase_if(s, [](const auto& kv) { return kv.first.starts_with("run/nicd-sim/"); });
        return s;
    }
    // "ibdev:port" of each class entry of `kind` (umad, issm), by entry name.
    std::map<std::string, std::string> entries(const std::string& kind)
    {
        std::map<std::string, std::string> out;
        for (const auto& e : fs::directory_iterator(dir_ / "sys/class/infiniband_mad")) {
            auto name = e.path().filename().string();
            if (!name.starts_with(kind))
                continue;
            auto ibdev = readFile(e.path() / "ibdev");
            auto port = readFile(e.path() / "port");
            out[name] = ibdev.substr(0, ibdev.size() - 1) + ":" + port.substr(0, port.size() - 1);
        }
        return out;
    }
};

} // namespace

TEST_F(SimMadTest, EveryPortHasItsUmadAndIssmWithTheirNodes)
{
    EXPECT_EQ(readFile(dir_ / "sys/class/infiniband_mad/abi_version"), "5\n");
    auto umads = entries("umad");
    auto issms = entries("issm");
    ASSERT_EQ(umads.size(), 8U) << "one per port of every device, the IB port's among them";
    EXPECT_EQ(umads.at("umad4"), "mlx5_4:1");
    for (const auto& [name, port] : umads) {
        auto k = name.substr(4);
        EXPECT_EQ(issms.at("issm" + k), port) << "issm<K> is umad<K>'s port";
        EXPECT_TRUE(fs::exists(dir_ / "dev/infiniband" / name));
        EXPECT_TRUE(fs::exists(dir_ / "dev/infiniband" / ("issm" + k)));
        EXPECT_EQ(readFile(dir_ / "sys/class/infiniband_mad" / name / "dev"), "231:" + k + "\n");
    }
    // The class entry leads to the device's function, as the kernel's does.
    EXPECT_EQ(fs::canonical(dir_ / "sys/class/infiniband_mad/umad4").parent_path().parent_path(),
              fs::canonical(dir_ / "sys/class/infiniband/mlx5_4").parent_path().parent_path());
}

TEST_F(SimMadTest, UmadMissingTakesExactlyTheDevicesNodesAndItsClearPutsThemBack)
{
    auto before = snap();
    sim::umadMissing(dir_, "mlx5_4", true);
    EXPECT_EQ(test::changedPaths(before, snap()),
              (std::set<std::string>{"dev/infiniband/umad4", "dev/infiniband/issm4"}));
    sim::umadMissing(dir_, "mlx5_4", false);
    EXPECT_EQ(snap(), before);
    EXPECT_THROW(sim::umadMissing(dir_, "mlx5_9", true), sim::SimError);
}

TEST_F(SimMadTest, ARenameRenamesTheUmadAndIssmIbdev)
{
    sim::rename(dir_, "mlx5_4", "ibp154s0");
    EXPECT_EQ(entries("umad").at("umad4"), "ibp154s0:1");
    EXPECT_EQ(entries("issm").at("issm4"), "ibp154s0:1");
    sim::umadMissing(dir_, "ibp154s0", true);
    EXPECT_FALSE(fs::exists(dir_ / "dev/infiniband/umad4"));
}
