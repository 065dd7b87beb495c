// Expected inventory and inventory across boots on a simulated HGX H100 node (nicd-sim create
// --profile hgx-h100: 8 GPUs, 8 compute ConnectX-7 400G beside them, 2 storage ports), judged by
// `nicd --once` as an operator runs it: the full node is quiet; a compute port down makes the
// node short (inventory_short.compute, fatal, on the node, no device) until it is back; a NIC
// removed and the node rebooted is device_missing with its PCI address; ExpectPorts=none and a
// node without GPUs stay quiet. The forget path over D-Bus: tests/integration/inventory_bus_test.
#include "sim.hpp"
#include "support/daemon_fixture.hpp"
#include "support/process.hpp"

#include <fstream>

#include <gtest/gtest.h>

using namespace nicd;
namespace fs = std::filesystem;

namespace {

class InventoryTest : public test::DaemonTest {
protected:
    void SetUp() override
    {
        DaemonTest::SetUp();
        config("");
    }
    sim::CreateOptions nodeOptions() const override
    {
        sim::CreateOptions o;
        sim::applyProfile(o, "hgx-h100");
        return o;
    }

    void config(const std::string& extra)
    {
        writeConfig("[provision]\nMode=off\n[signals]\nEnable=no\n" + extra);
    }
    // Every nicd_condition_active line of the textfile.
    std::string conditions() const
    {
        std::string out;
        std::istringstream in(textfileText());
        for (std::string line; std::getline(in, line);)
            if (line.starts_with("nicd_condition_active{"))
                out += line + "\n";
        return out;
    }
};

constexpr const char* kShort = "nicd_condition_active{device=\"\",port=\"0\",code=\"inventory_"
                               "short.compute\",severity=\"fatal\",action=\"check_cable\"} 1\n";

} // namespace

TEST_F(InventoryTest, AFullHgxNodeIsQuietAndSaysWhatItExpected)
{
    auto out = once();
    EXPECT_NE(out.find("inventory: expected 8 compute ports at ≥ 400 Gb/s (auto: 8 × NVIDIA H100 "
                       "SXM5 80GB, a port per GPU), found 8 up\n"),
              std::string::npos)
        << out;
    EXPECT_NE(out.find("node health: healthy"), std::string::npos) << out;
    EXPECT_EQ(conditions(), "");
    auto text = textfileText();
    EXPECT_NE(text.find("nicd_expected_ports{role=\"compute\"} 8\n"), std::string::npos) << text;
    EXPECT_NE(text.find("nicd_up_ports{role=\"compute\"} 8\n"), std::string::npos);
    EXPECT_NE(text.find("nicd_up_ports_at_rate{role=\"compute\"} 8\n"), std::string::npos);
}

// With every source on (the pre-failure signals, readiness): the profile's two storage ports at
// 200G are a card of their own, not a compute card's port trained down.
TEST_F(InventoryTest, AFullHgxNodeWithEverySourceOnIsHealthy)
{
    writeConfig("[provision]\nMode=off\n");
    auto out = once();
    EXPECT_NE(out.find("node health: healthy"), std::string::npos) << out;
    EXPECT_EQ(conditions(), "");
}

// Exactly its conditions on exactly the affected port and the node, and back when cleared.
TEST_F(InventoryTest, AComputePortDownIsAShortNodeUntilItIsBack)
{
    once();
    sim::linkDown(root_, "mlx5_3", 1);
    auto out = once();
    EXPECT_NE(out.find("fatal node: expected 8 compute ports at ≥ 400 Gb/s (auto: 8 × NVIDIA H100 "
                       "SXM5 80GB, a port per GPU), found 7 up (mlx5_3/1 is down) "
                       "[inventory_short.compute] -> check_cable"),
              std::string::npos)
        << out;
    EXPECT_NE(out.find("node health: fatal"), std::string::npos) << out;
    auto active = conditions();
    EXPECT_NE(active.find(kShort), std::string::npos) << active;
    for (const auto& line : {"device=\"mlx5_3\",port=\"1\",code=\"port_down\"",
                             "device=\"mlx5_3\",port=\"1\",code=\"netdev_down.ens4f0np0\""})
        EXPECT_NE(active.find(line), std::string::npos) << line << "\n" << active;
    EXPECT_NE(active.find("device=\"mlx5_3\",port=\"1\",code=\"counter.link_downed\""),
              std::string::npos)
        << "the link_downed the simulator bumped\n"
        << active;
    EXPECT_EQ(std::count(active.begin(), active.end(), '\n'), 4) << active;
    EXPECT_NE(textfileText().find("nicd_up_ports{role=\"compute\"} 7\n"), std::string::npos);

    sim::linkUp(root_, "mlx5_3", 1);
    out = once();
    EXPECT_NE(out.find("inventory: expected 8 compute ports at ≥ 400 Gb/s (auto: 8 × NVIDIA H100 "
                       "SXM5 80GB, a port per GPU), found 8 up\n"),
              std::string::npos)
        << out;
    active = conditions();
    EXPECT_EQ(active.find("inventory_short"), std::string::npos) << active;
    EXPECT_EQ(active.find("port_down"), std::string::npos) << active;
}

// A NIC whose firmware did not come up after a reboot: the new boot starts clean but for the
// hardware, and the NIC that is gone is named with its PCI address.
TEST_F(InventoryTest, ANicRemovedAcrossARebootIsMissingWithItsPciAddress)
{
    once();
    sim::remove(root_, "mlx5_5");
    sim::reboot(root_);
    auto out = once();
    EXPECT_NE(out.find("fatal mlx5_5: RDMA device present at the last boot (PCI 0000:54:00.0, "
                       "compute, board "),
              std::string::npos)
        << out;
    EXPECT_NE(out.find("is absent in this one [device_missing] -> reseat_nic"), std::string::npos)
        << out;
    auto active = conditions();
    EXPECT_NE(active.find("nicd_condition_active{device=\"mlx5_5\",port=\"0\",code=\"device_"
                          "missing\",severity=\"fatal\",action=\"reseat_nic\"} 1\n"),
              std::string::npos)
        << active;
    EXPECT_NE(active.find("nicd_condition_active{device=\"\",port=\"0\",code=\"inventory_short."
                          "compute\",severity=\"fatal\",action=\"reseat_nic\"} 1\n"),
              std::string::npos)
        << "a NIC not there: the action of its device_missing\n"
        << active;
    EXPECT_EQ(std::count(active.begin(), active.end(), '\n'), 2) << active;

    sim::restore(root_, "mlx5_5");
    out = once();
    EXPECT_EQ(conditions(), "") << out;
}

// Where nicd does not run, --once --forget forgets a NIC taken out on purpose, as nicctl forget
// does: gone from the report and the textfile, and remembered so in the state for the next run.
TEST_F(InventoryTest, OnceForgetsANicGoneOnPurposeWithoutTheDaemon)
{
    once();
    sim::remove(root_, "mlx5_5");
    sim::reboot(root_);
    auto out = once();
    EXPECT_NE(out.find("nicd --once --forget mlx5_5"), std::string::npos)
        << "the advice says how: " << out;
    std::string forgot;
    EXPECT_EQ(test::run(nicd({"--once", "--forget", "mlx5_5"}), forgot), 2)
        << "forgotten; the node is still short of it: fatal\n"
        << forgot;
    EXPECT_NE(forgot.find("mlx5_5 (PCI 0000:54:00.0) forgotten (--forget)"), std::string::npos)
        << forgot;
    EXPECT_EQ(conditions().find("device_missing"), std::string::npos) << conditions();
    out = once();
    EXPECT_EQ(out.find("[device_missing]"), std::string::npos) << "not expected back: " << out;
    // A device that is there, or one nicd never knew, is refused.
    EXPECT_EQ(test::run(nicd({"--once", "--forget", "mlx5_0"}), forgot), 3);
    EXPECT_NE(forgot.find("--forget mlx5_0: it is present"), std::string::npos) << forgot;
    EXPECT_EQ(test::run(nicd({"--once", "--forget", "mlx5_77"}), forgot), 3);
    EXPECT_NE(forgot.find("remembers no absent device"), std::string::npos) << forgot;
}

TEST_F(InventoryTest, NoneAndANodeWithoutGpusStayQuiet)
{
    config("[health]\nExpectPorts=none\n");
    once();
    sim::linkDown(root_, "mlx5_3", 1);
    auto out = once();
    EXPECT_EQ(out.find("inventory: "), std::string::npos) << out;
    EXPECT_EQ(conditions().find("inventory_"), std::string::npos) << conditions();
    EXPECT_EQ(textfileText().find("nicd_expected_ports{"), std::string::npos);

    sim::CreateOptions o;
    o.gpus = 0;
    o.compute_nics = 0;
    o.force = true;
    sim::create(root_, o);
    config("");
    out = once();
    EXPECT_EQ(out.find("inventory: "), std::string::npos) << out;
    EXPECT_NE(out.find("node health: healthy"), std::string::npos) << out;
    EXPECT_EQ(conditions(), "");
}

// gpud's case: GPUs and no RDMA device at all.
TEST_F(InventoryTest, GpusAndNoRdmaDeviceIsFatalInWords)
{
    sim::CreateOptions o;
    sim::applyProfile(o, "hgx-b200");
    o.compute_nics = 0;
    o.storage_ports = 0;
    o.force = true;
    sim::create(root_, o);
    // The management NIC is no RDMA device: nothing of the node's is.
    auto out = once();
    EXPECT_NE(
        out.find("expected 4 compute ports at ≥ 400 Gb/s (auto: 8 × NVIDIA B200, a port per two "
                 "GPUs), found no RDMA device"),
        std::string::npos)
        << out;
    EXPECT_NE(out.find("node health: fatal"), std::string::npos) << out;
}
