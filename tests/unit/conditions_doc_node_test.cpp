// docs/conditions.md against the node-level and per-port readiness conditions: the ready.* codes
// of a compute port and the expected-inventory and across-boot conditions, each as the table says.
#include "config/value_parsers.hpp"
#include "health/health_engine.hpp"
#include "model/action.hpp"
#include "support/conditions_doc.hpp"
#include "support/health_fixture.hpp"

#include <set>

#include <gtest/gtest.h>

using namespace nicd;
using namespace nicd::health;
using nicd::test::ConditionsDoc;

TEST_F(ConditionsDoc, ReadinessConditions)
{
    // A compute NIC beside its GPU with every readiness input broken, and a compute InfiniBand
    // NIC without its umad node: seven conditions, each as the table says.
    const std::string sys = "/r/sys/devices/pci0000:18/0000:18:01.0/";
    Snapshot s;
    auto d = test::device("mlx5_0", 4);
    d.role = Role::Compute;
    d.pci_address = "0000:19:00.0";
    d.pci_path = sys + d.pci_address;
    d.numa_node = 1;
    d.ports[0].netdevs = {"ens1"};
    s.inventory.devices.push_back(d);
    auto ib = test::device("mlx5_1", 4);
    ib.role = Role::Compute;
    ib.ports[0].link_layer = "InfiniBand";
    s.inventory.devices.push_back(ib);
    s.inventory.gpus.push_back({"0000:19:01.0", sys + "0000:19:01.0", 0});
    auto& in = s.readiness;
    in.read = true;
    in.ports[{"mlx5_0", 1}] = {true, {}, 0, "ens1", 1500, std::nullopt, std::nullopt};
    in.verbs["mlx5_0"] = {false, "", false};
    in.ports[{"mlx5_1", 1}].mad = MadPortInputs{true, "umad1", false, "", false, {}};
    in.pairings["mlx5_0"] = {{"0000:19:01.0", 0, true, {"0000:18:01.0"}}};
    in.bridges["0000:18:01.0"] = {AcsInputs::Read::Ok, true, 0x000c, ""};
    in.gpudirect = GpuDirectInputs{"", true, false, "535.183.01", 535, "6.8.0", std::pair{6U, 8U}};
    HealthEngine engine{Config{}};
    engine.evaluate(s, 1000, 1000); // past the boot grace
    std::set<std::string> codes;
    for (const auto& c : s.health.conditions) {
        EXPECT_TRUE(documented(c.code, toString(c.severity), toString(c.action))) << c.message;
        codes.insert(c.code);
    }
    EXPECT_EQ(codes,
              (std::set<std::string>{"ready.no_roce_gid", "ready.mtu_mismatch", "ready.no_uverbs",
                                     "ready.no_umad", "ready.no_gpudirect", "ready.acs_redirect",
                                     "ready.numa_far"}));
}

// Expected inventory and inventory across boots: the node's shortfalls by role, a NIC of the last
// boot that did not come back, and the firmware and board events, each as documented.
TEST_F(ConditionsDoc, InventoryConditions)
{
    Config config;
    config.health.expect_ports = *config::parseExpectPorts("compute:2@400 storage:1@200");
    HealthEngine engine{config};
    auto nic = [](const std::string& name, const std::string& pci, Role role, double gbps) {
        auto d = test::device(name, 4);
        d.pci_address = pci;
        d.role = role;
        d.fw_ver = "28.41.1000";
        d.ports[0].rate_gbps = gbps;
        return d;
    };
    Snapshot s;
    s.inventory.devices = {nic("mlx5_0", "0000:1a:00.0", Role::Compute, 400),
                           nic("mlx5_1", "0000:3b:00.0", Role::Compute, 400),
                           nic("mlx5_2", "0000:e1:00.0", Role::Storage, 200)};
    engine.evaluate(s, 1001, 1001);
    engine.baseline("new boot", 1002, test::savedState(engine));
    Snapshot next;
    next.inventory.devices = {nic("mlx5_0", "0000:1a:00.0", Role::Compute, 200),
                              nic("mlx5_2", "0000:e1:00.0", Role::Storage, 100)};
    next.inventory.devices[1].fw_ver = "28.43.1014";
    auto events = engine.evaluate(next, 1003, 1003); // past the boot grace
    std::set<std::string> codes;
    for (const auto& c : next.health.conditions) {
        codes.insert(c.code);
        EXPECT_TRUE(documented(c.code, toString(c.severity), toString(c.action)));
    }
    for (const char* want : {"inventory_short.compute", "inventory_slow.compute",
                             "inventory_slow.storage", "device_missing"})
        EXPECT_TRUE(codes.contains(want)) << want << " was not raised";
    bool changed = false;
    for (const auto& e : events)
        if (e.kind == EventKind::Changed) {
            changed = true;
            EXPECT_TRUE(documented(e.code, toString(e.severity), toString(e.action)));
        }
    EXPECT_TRUE(changed) << "no firmware_changed event";
    Snapshot storage_gone;
    storage_gone.inventory.devices = {next.inventory.devices[0]};
    engine.evaluate(storage_gone, 1004, 1004);
    bool storage_short = false;
    for (const auto& x : storage_gone.health.conditions)
        if (x.code == "inventory_short.storage") {
            storage_short = true;
            EXPECT_TRUE(documented(x.code, toString(x.severity), toString(x.action)));
        }
    EXPECT_TRUE(storage_short);
}
