// nicd-sim's twin of a ConnectX-8 in multi-plane mode (plane_faults.cpp): smi-add lays the SMI
// sub-device out as the kernel does (same PCI function, a port per plane, umad and issm each, no
// uverbs; the parent's port gains IsSMDisabled and loses its issm), nicd's inventory reads its
// ports as the parent's planes, plane-downtrain halves one plane's rate, and each clear puts the
// node back as it was.
#include "inventory/sysfs_inventory.hpp"
#include "sim.hpp"
#include "support/sim_tree.hpp"

#include <gtest/gtest.h>

namespace fs = std::filesystem;
using namespace nicd;
using test::readFile;

namespace {

class SimPlanes : public test::SimDirTest {
protected:
    void SetUp() override
    {
        SimDirTest::SetUp();
        sim::CreateOptions o;
        sim::applyProfile(o, "hgx-b300");
        o.infiniband = true;
        sim::create(dir_, o);
    }
    test::TreeSnapshot snap()
    {
        auto s = test::snapshotTree(dir_);
        std::erase_if(s, [](const auto& kv) { return kv.first.starts_with("run/nicd-sim/"); });
        return s;
    }
    fs::path cls(const std::string& ibdev) const { return dir_ / "sys/class/infiniband" / ibdev; }
    // The class entries of `kind` (umad, issm) that name `ibdev`: "entry:port".
    std::set<std::string> mad(const std::string& kind, const std::string& ibdev) const
    {
        std::set<std::string> out;
        for (const auto& e : fs::directory_iterator(dir_ / "sys/class/infiniband_mad"))
            if (e.path().filename().string().starts_with(kind) &&
                readFile(e.path() / "ibdev") == ibdev + "\n")
                out.insert(e.path().filename().string() + ":" + readFile(e.path() / "port"));
        return out;
    }
};

} // namespace

TEST_F(SimPlanes, SmiAddLaysTheSubDeviceOutAsTheKernelDoes)
{
    ASSERT_EQ(readFile(cls("mlx5_0") / "ports/1/link_layer"), "InfiniBand\n");
    ASSERT_EQ(mad("issm", "mlx5_0").size(), 1U);
    sim::smiAdd(dir_, "mlx5_0", 4, true);
    EXPECT_EQ(fs::canonical(cls("smi0") / "device"), fs::canonical(cls("mlx5_0") / "device"));
    for (int plane = 1; plane <= 4; ++plane) {
        auto port = cls("smi0") / "ports" / std::to_string(plane);
        EXPECT_EQ(readFile(port / "rate"), "200 Gb/sec (1X XDR)\n");
        EXPECT_EQ(readFile(port / "state"), readFile(cls("mlx5_0") / "ports/1/state"));
        EXPECT_EQ(readFile(port / "link_layer"), "InfiniBand\n");
        EXPECT_TRUE(fs::exists(port / "counters/symbol_error"));
        EXPECT_FALSE(fs::exists(port / "hw_counters"));
    }
    EXPECT_FALSE(fs::exists(cls("smi0") / "ports/5"));
    EXPECT_EQ(mad("umad", "smi0").size(), 4U);
    EXPECT_EQ(mad("issm", "smi0").size(), 4U);
    for (const auto& e : fs::directory_iterator(cls("mlx5_0") / "device/infiniband_verbs"))
        EXPECT_NE(readFile(e.path() / "ibdev"), "smi0\n") << "no uverbs for a sub-device";
    EXPECT_EQ(readFile(cls("mlx5_0") / "ports/1/cap_mask"), "0xa751ec48\n") << "IsSMDisabled";
    EXPECT_EQ(mad("issm", "mlx5_0"), std::set<std::string>{}) << "no SMI on the parent";
    EXPECT_EQ(mad("umad", "mlx5_0").size(), 1U);
    EXPECT_THROW(sim::smiAdd(dir_, "mlx5_0", 4, true), sim::SimError) << "EEXIST";
}

TEST_F(SimPlanes, NicdReadsThePlanesAsTheParents)
{
    sim::smiAdd(dir_, "mlx5_0", 4, true);
    sim::planeDowntrain(dir_, "mlx5_0", 2, true);
    auto inv = inventory::discoverInventory(HostPaths(dir_));
    EXPECT_EQ(inv.find("smi0"), nullptr);
    const auto* d = inv.find("mlx5_0");
    ASSERT_NE(d, nullptr);
    ASSERT_EQ(d->planes.size(), 4U);
    EXPECT_EQ(d->planes[0].port.rate, "200 Gb/sec (1X XDR)");
    EXPECT_EQ(d->planes[1].port.rate, "100 Gb/sec (1X NDR)");
    EXPECT_EQ(d->planes[1].smi_device, "smi0");
}

TEST_F(SimPlanes, EachClearPutsTheNodeBack)
{
    const auto before = snap();
    sim::smiAdd(dir_, "mlx5_0", 4, true);
    const auto planes = snap();
    sim::planeDowntrain(dir_, "mlx5_0", 3, true);
    const auto rate = fs::canonical(cls("smi0") / "ports/3/rate")
                          .lexically_relative(fs::canonical(dir_))
                          .string();
    EXPECT_EQ(test::changedPaths(planes, snap()), std::set<std::string>{rate});
    EXPECT_EQ(readFile(cls("smi0") / "ports/3/rate"), "100 Gb/sec (1X NDR)\n");
    sim::planeDowntrain(dir_, "mlx5_0", 0, false);
    EXPECT_EQ(snap(), planes);
    sim::smiAdd(dir_, "mlx5_0", 4, false);
    EXPECT_EQ(test::changedPaths(before, snap()), std::set<std::string>{});
    EXPECT_THROW(sim::planeDowntrain(dir_, "mlx5_0", 2, true), sim::SimError) << "no SMI device";
}

TEST_F(SimPlanes, AnEthernetPortHasNoPlanes)
{
    EXPECT_THROW(sim::smiAdd(dir_, "mlx5_8", 4, true), sim::SimError) << "the storage card: RoCE";
}
