// The readiness reads of a port's GID table and verbs device on a hand-built tree: unused slots are
// zeros, and a device that goes away under the read leaves the table unknown, never empty (an empty
// table is a fatal ready.no_roce_gid on a port that is fine).
#include "readiness/readiness_reads.hpp"
#include "support/temp_dir.hpp"

#include <fstream>

#include <gtest/gtest.h>

using namespace nicd;
namespace fs = std::filesystem;

namespace {

class ReadinessReads : public test::TempDirTest {
protected:
    ReadinessReads() : TempDirTest("ready-reads") {}

    void SetUp() override
    {
        TempDirTest::SetUp();
        device_.ibdev = "rxe0";
        device_.sysfs_path = (dir_ / "rxe0").string();
        port_.num = 1;
        fs::create_directories(gids());
        fs::create_directories(dir_ / "rxe0/ports/1/gid_attrs/types");
        fs::create_directories(dir_ / "rxe0/ports/1/gid_attrs/ndevs");
    }

    fs::path gids() const { return dir_ / "rxe0/ports/1/gids"; }

    void gid(int index, const std::string& text, const std::string& type = "RoCE v2")
    {
        std::ofstream(gids() / std::to_string(index)) << text << "\n";
        std::ofstream(dir_ / "rxe0/ports/1/gid_attrs/types" / std::to_string(index))
            << type << "\n";
        std::ofstream(dir_ / "rxe0/ports/1/gid_attrs/ndevs" / std::to_string(index)) << "veth0\n";
    }

    Device device_;
    Port port_;
};

constexpr const char* kZero = "0000:0000:0000:0000:0000:0000:0000:0000";
constexpr const char* kRoce = "0000:0000:0000:0000:0000:ffff:0a00:0001";

TEST_F(ReadinessReads, UsedSlotsAreReadAndZeroSlotsLeftOut)
{
    gid(0, "fe80:0000:0000:0000:0000:00ff:fe00:0001", "IB/RoCE v1");
    gid(1, kRoce);
    gid(2, kZero);
    auto in = readiness::readPortInputs(HostPaths(dir_), device_, port_);
    EXPECT_TRUE(in.gids_listed);
    ASSERT_EQ(in.gids.size(), 2U);
    EXPECT_EQ(in.gids[1].index, 1U);
    EXPECT_EQ(in.gids[1].type, "RoCE v2");
    EXPECT_EQ(in.gids[1].netdev, "veth0");
}

// The directory was listed, then an entry could not be read (the device was removed between
// the two): the table is not known.
TEST_F(ReadinessReads, AnEntryGoneUnderTheReadLeavesTheTableUnknown)
{
    gid(0, kRoce);
    fs::create_symlink(dir_ / "gone", gids() / "1");
    auto in = readiness::readPortInputs(HostPaths(dir_), device_, port_);
    EXPECT_FALSE(in.gids_listed);
    EXPECT_TRUE(in.gids.empty());
}

// The same for the verbs device: an entry whose ibdev cannot be read leaves it unknown, where a
// readable one naming another device is passed over.
TEST_F(ReadinessReads, AVerbsEntryGoneUnderTheReadLeavesTheVerbsDeviceUnknown)
{
    device_.pci_path = (dir_ / "pci").string();
    const auto verbs = dir_ / "pci/infiniband_verbs";
    fs::create_directories(verbs / "uverbs0");
    fs::create_directories(verbs / "uverbs1");
    std::ofstream(verbs / "uverbs0/ibdev") << "mlx5_9\n";
    std::ofstream(verbs / "uverbs1/ibdev") << "rxe0\n";
    auto in = readiness::readVerbsDevice(HostPaths(dir_), device_);
    EXPECT_TRUE(in.listed);
    EXPECT_EQ(in.name, "uverbs1");
    fs::remove(verbs / "uverbs0/ibdev");
    in = readiness::readVerbsDevice(HostPaths(dir_), device_);
    EXPECT_FALSE(in.listed);
    EXPECT_EQ(in.name, "");
}

// A device with no PCI parent (rdma_rxe, siw): its verbs device is found in the class directory,
// as the kernel lays it out (a link to devices/virtual/infiniband_verbs/uverbsN).
TEST_F(ReadinessReads, ADeviceWithoutAPciParentHasItsVerbsDeviceInTheClassDirectory)
{
    const auto virt = dir_ / "sys/devices/virtual/infiniband_verbs/uverbs0";
    fs::create_directories(virt);
    std::ofstream(virt / "ibdev") << "rxe0\n";
    fs::create_directories(dir_ / "sys/class/infiniband_verbs");
    std::ofstream(dir_ / "sys/class/infiniband_verbs/abi_version") << "6\n";
    fs::create_symlink("../../devices/virtual/infiniband_verbs/uverbs0",
                       dir_ / "sys/class/infiniband_verbs/uverbs0");
    fs::create_directories(dir_ / "dev/infiniband");
    std::ofstream(dir_ / "dev/infiniband/uverbs0") << "";
    auto in = readiness::readVerbsDevice(HostPaths(dir_), device_);
    EXPECT_TRUE(in.listed);
    EXPECT_EQ(in.name, "uverbs0");
    EXPECT_TRUE(in.dev_node);
}

// In a --root tree a class entry that leads out of the tree is passed over, never read.
TEST_F(ReadinessReads, AClassEntryLeadingOutOfTheTreeIsNotRead)
{
    const auto outside = dir_ / "outside/uverbs0";
    fs::create_directories(outside);
    std::ofstream(outside / "ibdev") << "rxe0\n";
    const auto tree = dir_ / "tree";
    fs::create_directories(tree / "sys/class/infiniband_verbs");
    fs::create_symlink(outside, tree / "sys/class/infiniband_verbs/uverbs0");
    auto in = readiness::readVerbsDevice(HostPaths(tree), device_);
    EXPECT_TRUE(in.listed);
    EXPECT_EQ(in.name, "") << "read through a link out of the tree";
}

TEST_F(ReadinessReads, NoTableIsUnknown)
{
    fs::remove_all(gids());
    auto in = readiness::readPortInputs(HostPaths(dir_), device_, port_);
    EXPECT_FALSE(in.gids_listed);
}

} // namespace

// An InfiniBand port's umad and issm devices: the entries of its function's infiniband_mad/ that
// name its device and port (a dual-port card lists both ports'), and whether each /dev node is
// there; an entry that cannot be read leaves them unknown.
TEST_F(ReadinessReads, UmadAndIssmAreFoundByDeviceAndPort)
{
    device_.ibdev = "mlx5_4";
    device_.pci_path = (dir_ / "pci").string();
    port_.num = 2;
    const auto mad = dir_ / "pci/infiniband_mad";
    auto entry = [&](const std::string& name, const std::string& ibdev, int port) {
        fs::create_directories(mad / name);
        std::ofstream(mad / name / "ibdev") << ibdev << "\n";
        std::ofstream(mad / name / "port") << port << "\n";
    };
    entry("umad3", "mlx5_4", 1);
    entry("issm3", "mlx5_4", 1);
    entry("umad4", "mlx5_4", 2);
    entry("issm4", "mlx5_4", 2);
    entry("umad9", "mlx5_9", 2);
    fs::create_directories(dir_ / "dev/infiniband");
    std::ofstream(dir_ / "dev/infiniband/umad4") << "";
    auto in = readiness::readMadPort(HostPaths(dir_), device_, port_);
    ASSERT_TRUE(in);
    EXPECT_EQ(*in, (MadPortInputs{true, "umad4", true, "issm4", false, {}}));
    // Without the directory (ib_umad not loaded): listed is false.
    fs::remove_all(mad);
    EXPECT_EQ(readiness::readMadPort(HostPaths(dir_), device_, port_), MadPortInputs{});
    // An entry whose port cannot be read: unknown, not missing.
    entry("umad4", "mlx5_4", 2);
    fs::remove(mad / "umad4/port");
    EXPECT_EQ(readiness::readMadPort(HostPaths(dir_), device_, port_), std::nullopt);
}

// A multi-plane ConnectX-8 port: mlx5 sets IsSMDisabled (0x400) in its cap_mask and the kernel
// makes no issm for it; the SMI device's entries name the SMI device, never the parent.
TEST_F(ReadinessReads, AMultiPlanePortsCapMaskSaysItHasNoIssm)
{
    device_.ibdev = "mlx5_0";
    device_.pci_path = (dir_ / "pci").string();
    const auto mad = dir_ / "pci/infiniband_mad";
    auto entry = [&](const std::string& name, const std::string& ibdev, int port) {
        fs::create_directories(mad / name);
        std::ofstream(mad / name / "ibdev") << ibdev << "\n";
        std::ofstream(mad / name / "port") << port << "\n";
    };
    entry("umad0", "mlx5_0", 1);
    entry("umad1", "smi0", 1);
    entry("issm1", "smi0", 1);
    fs::create_directories(dir_ / "dev/infiniband");
    std::ofstream(dir_ / "dev/infiniband/umad0") << "";
    std::ofstream(dir_ / "rxe0/ports/1/cap_mask") << "0xa751ec48\n";
    device_.sysfs_path = (dir_ / "rxe0").string();
    auto in = readiness::readMadPort(HostPaths(dir_), device_, port_);
    ASSERT_TRUE(in);
    EXPECT_EQ(*in, (MadPortInputs{true, "umad0", true, "", false, true}));
    // An ordinary InfiniBand port's cap_mask (no 0x400).
    std::ofstream(dir_ / "rxe0/ports/1/cap_mask") << "0xa751e848\n";
    EXPECT_FALSE(readiness::readMadPort(HostPaths(dir_), device_, port_)->sm_disabled);
}
