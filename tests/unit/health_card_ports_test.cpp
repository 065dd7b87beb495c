// A card cabled only in part (card_ports_fewer): a dual-port card with one port up and one never
// up, beside a peer card with both up, is degraded on the port that is not up, even where a spare
// card uncabled on purpose keeps port_never_up at info. A spare card with no port up, a card with
// no full peer, a port that went down after being up, and ExpectUp=no raise nothing of it.
#include "health/health_engine.hpp"
#include "support/health_fixture.hpp"

#include <fmt/format.h>

#include <gtest/gtest.h>

using namespace nicd;
using namespace nicd::health;
using namespace nicd::test;

namespace {

// Port `port` of a storage card's PF: PCI 0000:<bus>:00.<port>, board MT_0000000891.
Device storagePf(const std::string& name, int bus, int port, int state)
{
    auto d = test::device(name, state);
    d.pci_address = fmt::format("0000:{:02x}:00.{}", bus, port);
    d.board_id = "MT_0000000891";
    d.role = Role::Storage;
    return d;
}

class CardPorts : public HealthTest {
protected:
    // Cards at e1 (both ports up), e3 (port 0 up, port 1 `second`), e5 (a spare: both down).
    Snapshot node(int second, bool spare = true)
    {
        std::vector<Device> devices{
            storagePf("mlx5_8", 0xe1, 0, 4), storagePf("mlx5_9", 0xe1, 1, 4),
            storagePf("mlx5_10", 0xe3, 0, 4), storagePf("mlx5_11", 0xe3, 1, second)};
        if (spare) {
            devices.push_back(storagePf("mlx5_12", 0xe5, 0, 1));
            devices.push_back(storagePf("mlx5_13", 0xe5, 1, 1));
        }
        return snap(devices);
    }
};

} // namespace

TEST_F(CardPorts, AHalfCabledCardBesideAFullPeerIsDegradedOnItsPortNotUp)
{
    auto s = at(10, node(1));
    const auto* c = find(s, "card_ports_fewer", "mlx5_11");
    ASSERT_TRUE(c);
    EXPECT_EQ(c->severity, ConditionSeverity::Degraded);
    EXPECT_EQ(c->action, Action::CheckCable);
    EXPECT_EQ(c->message, "card 0000:e3:00 (MT_0000000891) has 1 of its 2 ports up and this one "
                          "not up this boot, while its peer card 0000:e1:00 has all 2 up: "
                          "cabled only in part");
    EXPECT_EQ(find(s, "port_never_up", "mlx5_11")->severity, ConditionSeverity::Info)
        << "the spare's ports are down: port_never_up alone stays info";
    EXPECT_EQ(portHealth(s, "mlx5_11"), Health::Degraded);
    for (const char* spare : {"mlx5_12", "mlx5_13"})
        EXPECT_FALSE(find(s, "card_ports_fewer", spare)) << "a card with no port up is a spare";

    s = at(20, node(4));
    EXPECT_FALSE(find(s, "card_ports_fewer", "mlx5_11")) << "cabled: it recovers";
}

TEST_F(CardPorts, APortThatWentDownIsPortDownsNotTheCards)
{
    at(10, node(4));
    auto s = at(20, node(1));
    EXPECT_FALSE(find(s, "card_ports_fewer", "mlx5_11"));
    EXPECT_TRUE(find(s, "port_down", "mlx5_11"));
}

TEST_F(CardPorts, NoFullPeerOrExpectUpNoRaisesNothing)
{
    // Both dual-port cards half up: no peer says what the card should be.
    auto s = at(10, snap({storagePf("mlx5_8", 0xe1, 0, 4), storagePf("mlx5_9", 0xe1, 1, 1),
                          storagePf("mlx5_10", 0xe3, 0, 4), storagePf("mlx5_11", 0xe3, 1, 1)}));
    EXPECT_FALSE(find(s, "card_ports_fewer", "mlx5_9"));
    EXPECT_FALSE(find(s, "card_ports_fewer", "mlx5_11"));

    Config c;
    c.devices["mlx5_11"].expect_up = false;
    engine_.configure(c);
    s = at(20, node(1));
    EXPECT_FALSE(find(s, "card_ports_fewer", "mlx5_11")) << "meant to be used in part";
}

TEST_F(CardPorts, APeerOfAnotherBoardOrRoleIsNoPeer)
{
    auto other = node(1, false);
    for (auto& d : other.inventory.devices)
        if (d.pci_address.starts_with("0000:e1"))
            d.role = Role::Compute;
    auto s = at(10, other);
    EXPECT_FALSE(find(s, "card_ports_fewer", "mlx5_11"));
}
