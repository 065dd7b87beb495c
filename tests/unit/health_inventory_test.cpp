// Expected inventory in the health engine (health/inventory_rules.hpp): inventory_short.<role>
// and inventory_slow.<role> are conditions of the node (device "", port 0), raised and recovered
// with the counts, that drive the node verdict and no device's health.
#include "config/value_parsers.hpp"
#include "health/boot_grace.hpp"
#include "support/health_fixture.hpp"

#include <gtest/gtest.h>

using namespace nicd;
using namespace nicd::test;

namespace {

class InventoryHealthTest : public HealthTest {
protected:
    // Times past the boot grace (boot_grace.hpp): the node has been up long enough to judge.
    Snapshot at(double t, Snapshot s) { return HealthTest::at(kInventoryBootGraceSec + t, s); }
    // Eight H100 SXM5 GPUs and their eight compute NICs at 400, `down` of them down; a storage
    // NIC at 200.
    Snapshot hgx(size_t down = 0, double storage_gbps = 200)
    {
        std::vector<Device> devices;
        for (size_t i = 0; i < 8; ++i) {
            auto d = device(fmt::format("mlx5_{}", i), i < down ? 1 : 4);
            d.role = Role::Compute;
            d.ports[0].rate_gbps = 400;
            devices.push_back(d);
        }
        auto storage = device("mlx5_8", 4);
        storage.role = Role::Storage;
        storage.ports[0].rate_gbps = storage_gbps;
        devices.push_back(storage);
        auto s = snap(devices);
        for (size_t i = 0; i < 8; ++i)
            s.inventory.gpus.push_back(
                {fmt::format("0000:{:02x}:01.0", 0x18 + i), "", 0, "0x2330"});
        return s;
    }
    void expect(const std::string& setting)
    {
        config_.health.expect_ports = *config::parseExpectPorts(setting);
        engine_.configure(config_);
    }
};

} // namespace

TEST_F(InventoryHealthTest, AFullNodeIsQuiet)
{
    auto s = at(1, hgx());
    EXPECT_TRUE(s.health.conditions.empty());
    EXPECT_EQ(s.health.node, Health::Healthy);
    ASSERT_EQ(s.health.inventory.size(), 1U) << "the expectation is reported, met";
    EXPECT_EQ(s.health.inventory[0].up, 8U);
}

TEST_F(InventoryHealthTest, AComputePortDownIsAShortNodeUntilItIsBack)
{
    at(1, hgx());
    auto s = at(2, hgx(1));
    const auto* c = find(s, "inventory_short.compute", "");
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(c->port, 0U);
    EXPECT_EQ(c->severity, ConditionSeverity::Fatal);
    EXPECT_EQ(c->action, Action::CheckCable) << "every NIC is there: a port is down";
    EXPECT_EQ(c->source, ConditionSource::Inventory);
    EXPECT_EQ(c->message, "expected 8 compute ports at ≥ 400 Gb/s (auto: 8 × NVIDIA H100 SXM5 "
                          "80GB, a port per GPU), found 7 up (mlx5_0/1 is down)");
    EXPECT_NE(find(s, "port_down", "mlx5_0"), nullptr) << "the port says what it is, too";
    EXPECT_EQ(s.health.node, Health::Fatal);
    EXPECT_FALSE(s.health.devices.contains("")) << "the node is no device";
    EXPECT_EQ(s.health.devices.at("mlx5_1"), Health::Healthy) << "nothing on the other NICs";

    s = at(3, hgx());
    EXPECT_EQ(find(s, "inventory_short.compute", ""), nullptr);
    EXPECT_EQ(s.health.node, Health::Healthy);
    bool recovered = false;
    for (const auto& e : last_events_)
        recovered = recovered || (e.kind == EventKind::Recovered &&
                                  e.code == "inventory_short.compute" && e.device.empty());
    EXPECT_TRUE(recovered);
}

TEST_F(InventoryHealthTest, StorageShortIsDegradedAndSlowPortsAreTheirOwnCondition)
{
    expect("compute:8@400 storage:2@200");
    auto s = at(1, hgx(0, 100));
    const auto* shortage = find(s, "inventory_short.storage", "");
    ASSERT_NE(shortage, nullptr);
    EXPECT_EQ(shortage->severity, ConditionSeverity::Degraded);
    const auto* slow = find(s, "inventory_slow.storage", "");
    ASSERT_NE(slow, nullptr);
    EXPECT_EQ(slow->severity, ConditionSeverity::Degraded);
    EXPECT_EQ(slow->action, Action::CheckCable);
    EXPECT_EQ(find(s, "inventory_short.compute", ""), nullptr);
    EXPECT_EQ(s.health.node, Health::Degraded);

    expect("compute:8@800");
    s = at(2, hgx());
    EXPECT_EQ(find(s, "inventory_short.storage", ""), nullptr) << "no longer expected";
    EXPECT_EQ(find(s, "inventory_slow.storage", ""), nullptr);
    ASSERT_NE(find(s, "inventory_slow.compute", ""), nullptr);
    EXPECT_EQ(find(s, "inventory_slow.compute", "")->message,
              "expected 8 compute ports at ≥ 800 Gb/s (ExpectPorts=compute:8@800), found 8 up, 0 "
              "at that rate (mlx5_0/1 at 400 Gb/s, mlx5_1/1 at 400 Gb/s, mlx5_2/1 at 400 Gb/s, "
              "mlx5_3/1 at 400 Gb/s and 4 more)");
}

TEST_F(InventoryHealthTest, NoExpectationWithoutGpusOrWithNone)
{
    auto no_gpu = hgx(3);
    no_gpu.inventory.gpus.clear();
    auto s = at(1, no_gpu);
    EXPECT_EQ(find(s, "inventory_short.compute", ""), nullptr);
    EXPECT_TRUE(s.health.inventory.empty());

    expect("none");
    s = at(2, hgx(3));
    EXPECT_EQ(find(s, "inventory_short.compute", ""), nullptr);
    EXPECT_TRUE(s.health.inventory.empty());
}

TEST_F(InventoryHealthTest, GpusAndNoRdmaDeviceIsFatal)
{
    Snapshot s;
    s.inventory.gpus.push_back({"0000:18:00.0", "", 0, "0x2901"}); // one B200
    s = at(1, s);
    const auto* c = find(s, "inventory_short.compute", "");
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(c->message, "expected 1 compute port at ≥ 400 Gb/s (auto: 1 × NVIDIA B200, a port "
                          "per GPU), found no RDMA device");
    EXPECT_EQ(c->action, Action::ReseatNic);
    EXPECT_EQ(s.health.node, Health::Fatal);

    Snapshot pcie; // a PCIe card's server whose only RDMA NIC is its front end
    pcie.inventory.gpus.push_back({"0000:18:00.0", "", 0, "0x2331"}); // H100 PCIe
    pcie = at(2, pcie);
    EXPECT_TRUE(pcie.health.conditions.empty());
    EXPECT_EQ(pcie.health.node, Health::Healthy);
}

// The node-level condition carries the action of its cause: ports down are cables, a NIC gone
// is the card (or, gone from the bus this boot, a reboot), both are named when both hold.
TEST_F(InventoryHealthTest, TheShortNodeCarriesTheActionOfItsCause)
{
    auto gone = [&](Snapshot s, size_t n) {
        s.inventory.devices.erase(s.inventory.devices.begin(), s.inventory.devices.begin() + n);
        return s;
    };
    auto s = at(1, gone(hgx(), 1)); // a NIC never seen: not there at all
    auto* c = find(s, "inventory_short.compute", "");
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(c->action, Action::ReseatNic);
    EXPECT_EQ(c->message, "expected 8 compute ports at ≥ 400 Gb/s (auto: 8 × NVIDIA H100 SXM5 "
                          "80GB, a port per GPU), found 7 up (1 not there)");
    EXPECT_EQ(c->advice.find("check the cables"), std::string::npos) << c->advice;

    s = at(2, gone(hgx(2), 1)); // mlx5_0 gone, mlx5_1 down
    c = find(s, "inventory_short.compute", "");
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(c->action, Action::ReseatNic);
    EXPECT_NE(c->message.find("(1 not there, mlx5_1/1 is down)"), std::string::npos) << c->message;
    EXPECT_NE(c->advice.find("reseat it"), std::string::npos) << c->advice;
    EXPECT_NE(c->advice.find("check the cables of the ports that are down"), std::string::npos)
        << c->advice;

    // mlx5_0 seen, then gone from the bus within this boot: device_missing says reboot_node,
    // and so does the node.
    at(3, hgx());
    s = at(4, gone(hgx(), 1));
    ASSERT_NE(find(s, "device_missing", "mlx5_0"), nullptr);
    EXPECT_EQ(find(s, "device_missing", "mlx5_0")->action, Action::RebootNode);
    c = find(s, "inventory_short.compute", "");
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(c->action, Action::RebootNode) << c->advice;
}

// Right after boot the drivers may not have probed every NIC: nothing is judged short yet.
TEST_F(InventoryHealthTest, NothingIsShortWithinTheBootGrace)
{
    auto s = HealthTest::at(30, hgx(2));
    EXPECT_EQ(find(s, "inventory_short.compute", ""), nullptr);
    ASSERT_EQ(s.health.inventory.size(), 1U) << "counted and reported all the same";
    EXPECT_EQ(s.health.inventory[0].up, 6U);
    s = at(31, hgx(2));
    EXPECT_NE(find(s, "inventory_short.compute", ""), nullptr);
}
