// Inventory across boots (health/device_hardware.hpp, KnownDevices::fromEarlierBoot): a new boot
// starts clean but for the hardware of the last one. A NIC of the last boot absent in this one is
// device_missing (fatal for a compute NIC, action reseat_nic, its PCI address and hardware in the
// message) until it comes back or an operator forgets it; a firmware or board change is an event.
#include "health/boot_grace.hpp"
#include "support/health_fixture.hpp"

#include <gtest/gtest.h>

using namespace nicd;
using namespace nicd::test;

namespace {

Device nic(const std::string& name, const std::string& pci, Role role, int state = 4)
{
    auto d = device(name, state);
    d.pci_address = pci;
    d.role = role;
    d.board_id = "MT_0000000838";
    d.fw_ver = "28.41.1000";
    d.node_guid = "b83f:d203:005a:" + name.substr(name.size() - 1) + "000";
    d.ports[0].rate_gbps = 400;
    return d;
}

std::vector<Device> bootNode()
{
    return {
        nic("mlx5_0", "0000:1a:00.0", Role::Compute), nic("mlx5_1", "0000:3b:00.0", Role::Compute),
        nic("mlx5_2", "0000:4c:00.0", Role::Compute), nic("mlx5_3", "0000:e1:00.0", Role::Storage)};
}

std::vector<Device> without(std::vector<Device> devices, const std::string& name)
{
    std::erase_if(devices, [&](const Device& d) { return d.ibdev == name; });
    return devices;
}

class AcrossBootsTest : public HealthTest {
protected:
    // Times past the boot grace (boot_grace.hpp): the node has been up long enough to judge.
    Snapshot at(double t, Snapshot s) { return HealthTest::at(kInventoryBootGraceSec + t, s); }
    // The last boot's engine saved what it knew; this one starts from it, as StateKeeper does on
    // a new boot ID.
    void reboot()
    {
        auto saved = savedState(engine_);
        engine_.baseline("new boot", 1700000100, saved);
    }
    bool event(EventKind kind, const std::string& device, const std::string& code) const
    {
        for (const auto& e : engine_.eventsSince(0))
            if (e.kind == kind && e.device == device && e.code == code)
                return true;
        return false;
    }
};

} // namespace

TEST_F(AcrossBootsTest, ANicThatDidNotComeBackIsMissingUntilItReturns)
{
    at(1, snap(bootNode()));
    auto down = bootNode();
    down[0].ports[0].state = 1;
    at(2, snap(down)); // a port_down of the last boot: not carried over
    reboot();
    auto s = at(3, snap(without(bootNode(), "mlx5_2")));
    const auto* c = find(s, "device_missing", "mlx5_2");
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(c->severity, ConditionSeverity::Fatal);
    EXPECT_EQ(c->action, Action::ReseatNic) << "within a boot it is reboot_node; across, hands";
    EXPECT_EQ(c->message, "RDMA device present at the last boot (PCI 0000:4c:00.0, compute, board "
                          "MT_0000000838, firmware 28.41.1000, 1 port at 400 Gb/s) is absent in "
                          "this one");
    EXPECT_EQ(find(s, "port_down", "mlx5_0"), nullptr) << "the rest of the last boot is gone";
    EXPECT_EQ(s.health.node, Health::Fatal) << "a compute NIC is gone";
    EXPECT_EQ(s.health.devices.at("mlx5_2"), Health::Fatal);

    s = at(4, snap(bootNode()));
    EXPECT_EQ(find(s, "device_missing", "mlx5_2"), nullptr) << "it came back";
    EXPECT_EQ(s.health.node, Health::Healthy);
}

TEST_F(AcrossBootsTest, AMissingStorageNicIsWeighedByTheRoleItHad)
{
    at(1, snap(bootNode()));
    reboot();
    auto s = at(2, snap(without(bootNode(), "mlx5_3")));
    ASSERT_NE(find(s, "device_missing", "mlx5_3"), nullptr);
    EXPECT_EQ(s.health.node, Health::Degraded);
}

// The kernel numbers mlx5 devices in probe order: with one NIC gone, the next takes its name.
// By PCI address nothing else is lost, and the gone one is named by its address and its old name.
TEST_F(AcrossBootsTest, ShiftedNamesAfterABootNameTheGoneNicByItsAddress)
{
    at(1, snap(bootNode()));
    reboot();
    auto shifted = without(bootNode(), "mlx5_2");
    shifted[2].ibdev = "mlx5_2"; // the storage NIC, 0000:e1:00.0, was mlx5_3
    auto s = at(2, snap(shifted));
    const auto* c = find(s, "device_missing", "0000:4c:00.0");
    ASSERT_NE(c, nullptr);
    EXPECT_NE(c->message.find("present at the last boot as mlx5_2 (PCI 0000:4c:00.0"),
              std::string::npos)
        << c->message;
    EXPECT_EQ(find(s, "device_missing", "mlx5_2"), nullptr);
    EXPECT_EQ(find(s, "device_missing", "mlx5_3"), nullptr);
}

// A firmware update of the whole board (every card alike: no firmware_drift) and a card swapped
// in a slot: an event each, once, and no condition.
TEST_F(AcrossBootsTest, FirmwareAndBoardChangesAreEvents)
{
    at(1, snap(bootNode()));
    reboot();
    auto changed = bootNode();
    for (auto& d : changed)
        d.fw_ver = "28.43.1014";
    changed[1].node_guid = "b83f:d203:0077:0000";
    auto s = at(2, snap(changed));
    EXPECT_TRUE(s.health.conditions.empty()) << "events, not conditions";
    for (const char* name : {"mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3"})
        EXPECT_TRUE(event(EventKind::Changed, name, "firmware_changed")) << name;
    EXPECT_TRUE(event(EventKind::Changed, "mlx5_1", "board_changed"));
    EXPECT_FALSE(event(EventKind::Changed, "mlx5_2", "board_changed"));
    bool said = false;
    for (const auto& e : engine_.eventsSince(0))
        said = said || e.message == "mlx5_0 (PCI 0000:1a:00.0) runs firmware 28.43.1014 since the "
                                    "last boot (was 28.41.1000)";
    EXPECT_TRUE(said);
    at(3, snap(changed));
    size_t n = 0;
    for (const auto& e : engine_.eventsSince(0))
        n += e.kind == EventKind::Changed ? 1 : 0;
    EXPECT_EQ(n, 5U) << "once each";
}

TEST_F(AcrossBootsTest, AForgottenNicIsNotExpectedBackInThisBootOrTheNext)
{
    at(1, snap(bootNode()));
    reboot();
    auto now = snap(without(bootNode(), "mlx5_2"));
    at(2, now);
    EXPECT_TRUE(engine_.forgetMissing("mlx5_1", now.inventory, 1700000200).empty())
        << "a device that is present is not forgotten";
    auto forgotten = engine_.forgetMissing("0000:4c:00.0", now.inventory, 1700000200);
    ASSERT_EQ(forgotten.size(), 1U) << "by its PCI address too";
    EXPECT_EQ(forgotten[0].name, "mlx5_2");
    EXPECT_TRUE(event(EventKind::Cleared, "mlx5_2", "device_missing"));
    auto s = at(3, now);
    EXPECT_EQ(find(s, "device_missing", "mlx5_2"), nullptr);
    EXPECT_EQ(s.health.node, Health::Healthy);
    reboot();
    s = at(4, now);
    EXPECT_EQ(find(s, "device_missing", "mlx5_2"), nullptr) << "nor at the next boot";
}

TEST_F(AcrossBootsTest, AcceptingTheInventoryForgetsEveryNicThatIsGone)
{
    at(1, snap(bootNode()));
    reboot();
    auto now = snap(without(without(bootNode(), "mlx5_2"), "mlx5_3"));
    auto s = at(2, now);
    ASSERT_NE(find(s, "device_missing", "mlx5_3"), nullptr);
    EXPECT_EQ(engine_.forgetMissing("", now.inventory, 1700000200).size(), 2U);
    s = at(3, now);
    EXPECT_TRUE(s.health.conditions.empty());
}

// What a new boot keeps is the hardware: VFs come and go with SR-IOV, and a software device
// (rxe) has none; a baseline without a saved state knows nothing.
TEST_F(AcrossBootsTest, OnlyHardwareOfItsOwnIsRemembered)
{
    auto vf = nic("mlx5_5", "0000:1a:00.2", Role::Compute);
    vf.function = DeviceFunction::VirtualFunction;
    auto rxe = nic("rxe0", "", Role::Storage);
    auto all = bootNode();
    all.push_back(vf);
    all.push_back(rxe);
    at(1, snap(all));
    reboot();
    auto s = at(2, snap(bootNode()));
    EXPECT_TRUE(s.health.conditions.empty());
    engine_.baseline("no saved state", 1700000300);
    s = at(3, snap(without(bootNode(), "mlx5_2")));
    EXPECT_TRUE(s.health.conditions.empty()) << "nothing remembered, nothing missing";
}

// A firmware update or a card added renumbers the PCI buses: the same cards (their node GUIDs) at
// new addresses are not missing.
TEST_F(AcrossBootsTest, CardsAtNewPciAddressesAreNotMissing)
{
    at(1, snap(bootNode()));
    reboot();
    auto renumbered = bootNode();
    for (auto& d : renumbered)
        d.pci_address[6] = 'f'; // 0000:1a:00.0 -> 0000:1f:00.0, ...
    auto s = at(2, snap(renumbered));
    EXPECT_TRUE(s.health.conditions.empty()) << s.health.conditions.at(0).message;
    reboot();
    s = at(3, snap(without(renumbered, "mlx5_2")));
    ASSERT_NE(find(s, "device_missing", "mlx5_2"), nullptr) << "known at its new address";
    EXPECT_NE(find(s, "device_missing", "mlx5_2")->message.find("PCI 0000:4f:00.0"),
              std::string::npos);
}

// nicd may start before the drivers probe the NICs: a NIC of the last boot is not missing within
// the boot grace, and is once the node has been up long enough.
TEST_F(AcrossBootsTest, ANicNotProbedYetRightAfterBootIsNotMissing)
{
    at(1, snap(bootNode()));
    reboot();
    auto s = HealthTest::at(20, snap(without(bootNode(), "mlx5_2")));
    EXPECT_TRUE(s.health.conditions.empty());
    s = at(21, snap(without(bootNode(), "mlx5_2")));
    EXPECT_NE(find(s, "device_missing", "mlx5_2"), nullptr);
}
