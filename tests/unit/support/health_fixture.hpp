// The health engine's tests: a fixture that evaluates hand-built snapshots over simulated time,
// and the devices and kernel lines they are built from.
#pragma once

#include "health/health_engine.hpp"
#include "support/mlx5_samples.hpp"

#include <algorithm>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

namespace nicd::test {

using namespace nicd::health;

inline Device device(const std::string& name, int state, const std::string& hca = "MT4129")
{
    Device d;
    d.ibdev = name;
    d.hca_type = hca;
    d.driver = "mlx5_core";
    Port p;
    p.num = 1;
    p.state = state;
    p.state_name = state == 4 ? "ACTIVE" : "DOWN";
    p.phys_state = state == 4 ? 5 : 3;
    p.phys_state_name = state == 4 ? "LinkUp" : "Disabled";
    p.link_layer = "Ethernet";
    d.ports.push_back(p);
    return d;
}

// What `engine` saves (the state file's "health"), parsed.
// "code@device" of the active conditions whose code starts with `prefix`, sorted.
inline std::vector<std::string> codesAt(const Snapshot& s, std::string_view prefix)
{
    std::vector<std::string> out;
    for (const auto& c : s.health.conditions)
        if (c.code.starts_with(prefix))
            out.push_back(c.code + "@" + c.device);
    std::sort(out.begin(), out.end());
    return out;
}

inline nlohmann::json savedState(const HealthEngine& engine)
{
    std::string text;
    engine.appendJson(text);
    return nlohmann::json::parse(text);
}

class HealthTest : public ::testing::Test {
protected:
    Snapshot snap(std::vector<Device> devices,
                  std::vector<std::tuple<std::string, std::string, uint64_t>> counters = {})
    {
        Snapshot s;
        s.inventory.devices = std::move(devices);
        for (const auto& [dev, name, value] : counters) {
            DeviceSamples* ds = nullptr;
            for (auto& x : s.samples)
                if (x.ibdev == dev)
                    ds = &x;
            if (!ds) {
                s.samples.push_back({});
                ds = &s.samples.back();
                ds->ibdev = dev;
            }
            addMlx5Samples(*ds, {{"hw_counters", 1, "", name, value, SampleKind::Counter}});
        }
        return s;
    }
    // Evaluates at time t (seconds) and returns the snapshot with health filled in.
    Snapshot at(double t, Snapshot s)
    {
        last_events_ = engine_.evaluate(s, t, 1700000000 + t);
        return s;
    }
    static const Condition* find(const Snapshot& s, const std::string& code,
                                 const std::string& dev = "mlx5_0")
    {
        for (const auto& c : s.health.conditions)
            if (c.code == code && c.device == dev)
                return &c;
        return nullptr;
    }
    Health portHealth(const Snapshot& s, const std::string& dev = "mlx5_0")
    {
        return s.health.ports.at({dev, 1});
    }

    Config config_;
    HealthEngine engine_{config_};
    std::vector<Event> last_events_;
};

// A line a plugin recognised: printed by the kernel about PCI function `pci` (and naming it), or,
// with `pci` empty, a device-less report naming `netdev`.
inline KernelFinding kernelMatch(const std::string& code, plugin::v1::Severity sev,
                                 const std::string& pci, const std::string& netdev = "")
{
    KernelFinding f;
    f.match.code = code;
    f.match.severity = sev;
    f.match.pci_address = pci;
    f.match.netdev = netdev;
    f.match.message = code + " happened";
    f.match.action = "do something";
    if (!pci.empty())
        f.origin = {"pci", pci};
    return f;
}

// A PF and its VF, both managed by the mlx5 plugin.
inline Inventory kernelInventory()
{
    Inventory inv;
    auto d = device("mlx5_0", 4);
    d.plugin = "mlx5";
    d.pci_address = "0004:01:00.0";
    d.pci_path = "/sys/devices/pci0004:00/0004:00:00.0/0004:01:00.0";
    d.ports[0].netdevs = {"ens1f0np0"};
    inv.devices.push_back(d);
    auto v = device("mlx5_1", 4);
    v.pci_address = "0004:01:00.2";
    v.pci_path = "/sys/devices/pci0004:00/0004:00:00.0/0004:01:00.2";
    v.function = DeviceFunction::VirtualFunction;
    v.plugin = "mlx5";
    inv.devices.push_back(v);
    return inv;
}

} // namespace nicd::test
