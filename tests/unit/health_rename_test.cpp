// A device is its hardware: when udev's rdma_rename gives it a new name (mlx5_0 -> rocep26s0f0),
// while nicd runs or between two runs, what the health engine knew of it follows the name (its
// conditions with their since-times, counter baselines, port history, kernel hits, congestion
// window, role) with one "renamed" event and no device_missing; hardware that goes is missing
// under its last name, and a name that other hardware takes starts clean.
#include "health/health_engine.hpp"
#include "support/health_fixture.hpp"

#include <string>
#include <vector>

#include <gtest/gtest.h>

using namespace nicd;
using namespace nicd::health;
using namespace nicd::test;

namespace {

const std::string kPciA = "0000:1a:00.0";
const std::string kPciB = "0000:3b:00.0";
const std::string kPciC = "0000:4c:00.0";

Device onPci(Device d, const std::string& pci, const std::string& netdev)
{
    d.pci_address = pci;
    d.ports[0].netdevs = {netdev};
    return d;
}

class RenameTest : public HealthTest {
protected:
    // The hardware at kPciA called `name` (its port up or down, `symbol_errors` read at t), and
    // mlx5_1 at kPciB, up. kPciA's RoCE port moves ECN-marked traffic: it has a congestion window.
    Snapshot node(const std::string& name, bool up, uint64_t symbol_errors, double t)
    {
        Snapshot s = snap({onPci(device(name, up ? 4 : 1), kPciA, "ens1f0np0"),
                           onPci(device("mlx5_1", 4), kPciB, "ens2f0np0")},
                          {{name, "symbol_error", symbol_errors}});
        auto& ds = s.samples.front();
        ds.monotonic_usec = static_cast<uint64_t>(t * 1e6);
        test::addMlx5Samples(ds, {{"ethtool", 1, "ens1f0np0", "rx_prio3_pause_duration",
                                   static_cast<uint64_t>(1000 * t), SampleKind::Counter}});
        for (const char* c : {"np_ecn_marked_roce_packets", "np_cnp_sent", "rp_cnp_handled"})
            test::addMlx5Samples(ds, {{"hw_counters", 1, "", c, static_cast<uint64_t>(20 * t),
                                       SampleKind::Counter}});
        return s;
    }
    Inventory inventoryOf(const std::string& name) { return node(name, true, 0, 0).inventory; }
    // The engine's memory (what the state file holds) but its event history, as text.
    std::string memory(const HealthEngine& engine)
    {
        auto j = savedState(engine);
        j.erase("events");
        return j.dump();
    }
    std::vector<Event> renamedEvents(const std::vector<Event>& events)
    {
        std::vector<Event> out;
        for (const auto& e : events)
            if (e.kind == EventKind::Renamed)
                out.push_back(e);
        return out;
    }
    // mlx5_0 with a symbol_error baseline, a kernel error and its port down since t=5.
    void beforeTheRename(HealthEngine& engine)
    {
        auto s = node("mlx5_0", true, 1000, 0);
        engine.evaluate(s, 0, 1700000000);
        engine.kernelLine(kernelMatch("mlx5.cmd_timeout", plugin::v1::Severity::Fatal, kPciA),
                          s.inventory, 1, 1700000001);
        s = node("mlx5_0", false, 1000, 5);
        engine.evaluate(s, 5, 1700000005);
        ASSERT_TRUE(find(s, "port_down"));
    }
    // What a rename must leave: everything under the new name, as it was, and one event.
    void expectFollowed(const Snapshot& s, const std::vector<Event>& events)
    {
        const auto* down = find(s, "port_down", "rocep26s0f0");
        ASSERT_TRUE(down) << "the port is still down under its new name";
        EXPECT_EQ(down->first_seen, 1700000005) << "since the same time";
        ASSERT_TRUE(find(s, "kernel.mlx5.cmd_timeout", "rocep26s0f0"));
        EXPECT_EQ(find(s, "kernel.mlx5.cmd_timeout", "rocep26s0f0")->first_seen, 1700000001);
        EXPECT_TRUE(find(s, "counter.symbol_error", "rocep26s0f0"))
            << "1000 -> 1130 within the hour: the baseline was carried over";
        EXPECT_EQ(s.health.kernel_errors.at({"rocep26s0f0", "mlx5.cmd_timeout"}), 1U);
        for (const auto& c : s.health.conditions) {
            EXPECT_NE(c.code, "device_missing") << c.device;
            EXPECT_NE(c.device, "mlx5_0") << c.code;
        }
        EXPECT_FALSE(s.health.devices.contains("mlx5_0"));
        EXPECT_EQ(s.health.devices.at("rocep26s0f0"), Health::Fatal);
        auto renamed = renamedEvents(events);
        ASSERT_EQ(renamed.size(), 1U);
        EXPECT_EQ(renamed[0].device, "rocep26s0f0");
        EXPECT_EQ(renamed[0].code, "device_renamed");
        EXPECT_EQ(renamed[0].severity, ConditionSeverity::Info);
        EXPECT_NE(renamed[0].message.find("mlx5_0 (PCI 0000:1a:00.0) is now rocep26s0f0"),
                  std::string::npos)
            << renamed[0].message;
        for (const auto& e : events)
            EXPECT_NE(e.kind, EventKind::Recovered) << e.device << " " << e.code << " flickered";
    }
};

} // namespace

TEST_F(RenameTest, WhileRunningEverythingFollowsTheHardwareWithOneEvent)
{
    beforeTheRename(engine_);
    for (const char* part : {"conditions", "links", "counters", "kernel", "roles", "congestion"})
        EXPECT_NE(savedState(engine_).at(part).dump().find("mlx5_0"), std::string::npos) << part;

    auto s = at(10, node("rocep26s0f0", false, 1130, 10));
    expectFollowed(s, last_events_);
    EXPECT_EQ(memory(engine_).find("mlx5_0"), std::string::npos)
        << "nothing is kept under the old name: " << memory(engine_);
    s = at(15, node("rocep26s0f0", false, 1130, 15));
    EXPECT_TRUE(renamedEvents(last_events_).empty()) << "once";
}

TEST_F(RenameTest, ARestartBetweenTheTwoNamesCarriesItAllToo)
{
    beforeTheRename(engine_);
    HealthEngine next{Config{}};
    next.restore(savedState(engine_));
    Snapshot s = node("rocep26s0f0", false, 1130, 10);
    auto events = next.evaluate(s, 10, 1700000010);
    expectFollowed(s, events);
}

TEST_F(RenameTest, AKernelLineOnTheNewNameFollowsTheRenameFirst)
{
    beforeTheRename(engine_);
    auto events =
        engine_.kernelLine(kernelMatch("mlx5.cmd_timeout", plugin::v1::Severity::Fatal, kPciA),
                           inventoryOf("rocep26s0f0"), 8, 1700000008);
    ASSERT_EQ(renamedEvents(events).size(), 1U);
    auto s = at(10, node("rocep26s0f0", false, 1130, 10));
    EXPECT_TRUE(renamedEvents(last_events_).empty());
    EXPECT_EQ(s.health.kernel_errors.at({"rocep26s0f0", "mlx5.cmd_timeout"}), 2U);
    EXPECT_EQ(find(s, "kernel.mlx5.cmd_timeout", "rocep26s0f0")->first_seen, 1700000001);
    EXPECT_FALSE(find(s, "device_missing", "mlx5_0"));
}

TEST_F(RenameTest, HardwareThatGoesIsMissingUnderItsLastNameWithItsAddress)
{
    at(0, node("mlx5_0", true, 0, 0));
    at(5, node("rocep26s0f0", true, 0, 5));
    auto s = at(10, snap({onPci(device("mlx5_1", 4), kPciB, "ens2f0np0")}));
    const auto* missing = find(s, "device_missing", "rocep26s0f0");
    ASSERT_TRUE(missing);
    EXPECT_EQ(missing->message, "RDMA device disappeared (PCI 0000:1a:00.0)");
    EXPECT_EQ(s.health.devices.at("rocep26s0f0"), Health::Fatal);
    // The driver brings it back under the kernel's name, before udev renames it again.
    s = at(15, node("mlx5_0", true, 0, 15));
    EXPECT_TRUE(s.health.conditions.empty());
    ASSERT_EQ(renamedEvents(last_events_).size(), 1U);
    EXPECT_EQ(last_events_.back().kind, EventKind::Recovered);
    EXPECT_EQ(last_events_.back().device, "mlx5_0");
    EXPECT_EQ(last_events_.back().message, "device is back");
}

TEST_F(RenameTest, SwappedNamesSwapWhatIsKnown)
{
    at(0, node("mlx5_0", true, 0, 0));
    at(5, node("mlx5_0", false, 0, 5));
    Snapshot s = snap({onPci(device("mlx5_1", 1), kPciA, "ens1f0np0"),
                       onPci(device("mlx5_0", 4), kPciB, "ens2f0np0")});
    at(10, s);
    EXPECT_EQ(renamedEvents(last_events_).size(), 2U);
    s = at(15, s);
    ASSERT_TRUE(find(s, "port_down", "mlx5_1"));
    EXPECT_EQ(find(s, "port_down", "mlx5_1")->first_seen, 1700000005);
    EXPECT_EQ(s.health.conditions.size(), 1U);
}

// Other hardware took the name of a device that is gone (a card pulled, another probed): the
// one gone is missing under its PCI address, with what was known of it; the name starts clean.
TEST_F(RenameTest, ANameOtherHardwareTookStartsClean)
{
    at(0, node("mlx5_0", true, 0, 0));
    at(5, snap({onPci(device("mlx5_0", 4), kPciA, "ens1f0np0"),
                onPci(device("mlx5_1", 1), kPciB, "ens2f0np0")}));
    auto s = at(10, snap({onPci(device("mlx5_0", 4), kPciA, "ens1f0np0"),
                          onPci(device("mlx5_1", 4), kPciC, "ens3f0np0")}));
    EXPECT_TRUE(find(s, "device_missing", kPciB));
    EXPECT_TRUE(find(s, "port_down", kPciB)) << "its port was down when it went";
    EXPECT_FALSE(find(s, "device_missing", "mlx5_1"));
    EXPECT_FALSE(find(s, "port_down", "mlx5_1"));
    EXPECT_EQ(s.health.devices.at("mlx5_1"), Health::Healthy);
    ASSERT_EQ(renamedEvents(last_events_).size(), 1U);
    EXPECT_EQ(renamedEvents(last_events_)[0].device, kPciB);
}

// nicd before identity by hardware kept device names: its state file is read, each name known by
// its PCI address from the first inventory on, and a later rename followed.
TEST_F(RenameTest, TheStateFileOfAnEarlierNicdIsMigrated)
{
    at(0, node("mlx5_0", true, 1000, 0));
    auto saved = savedState(engine_);
    saved["links"]["known_devices"] = {"mlx5_0", "mlx5_1", "mlx5_7"};
    HealthEngine next{Config{}};
    next.restore(saved);
    Snapshot s = node("mlx5_0", true, 1000, 5);
    next.evaluate(s, 5, 1700000005);
    ASSERT_EQ(s.health.conditions.size(), 1U);
    EXPECT_EQ(s.health.conditions[0].code, "device_missing");
    EXPECT_EQ(s.health.conditions[0].device, "mlx5_7") << "gone before the upgrade";
    EXPECT_EQ(s.health.conditions[0].message, "RDMA device disappeared");
    s = node("rocep26s0f0", true, 1130, 10);
    auto events = next.evaluate(s, 10, 1700000010);
    EXPECT_EQ(renamedEvents(events).size(), 1U);
    EXPECT_TRUE(find(s, "counter.symbol_error", "rocep26s0f0"));
    EXPECT_FALSE(find(s, "device_missing", "mlx5_0"));
}
