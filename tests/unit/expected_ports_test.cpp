// Expected inventory, the pure parts: [health] ExpectPorts= as written (config), the GPU profile
// table behind `auto` (inventory/gpu_profiles.hpp), what a node's GPUs make it expect, how its
// ports are counted, and the sentence that says both (health/expected_ports.hpp).
#include "config/value_parsers.hpp"
#include "health/expected_ports.hpp"
#include "inventory/gpu_profiles.hpp"
#include "support/health_fixture.hpp"

#include <gtest/gtest.h>

using namespace nicd;
using namespace nicd::health;

namespace {

std::vector<GpuFunction> gpus(size_t n, const std::string& device_id)
{
    std::vector<GpuFunction> out;
    for (size_t i = 0; i < n; ++i)
        out.push_back({fmt::format("0000:{:02x}:01.0", 0x18 + i), "", 0, device_id});
    return out;
}

ExpectPorts parse(const std::string& text)
{
    auto v = config::parseExpectPorts(text);
    EXPECT_TRUE(v.has_value()) << text << ": " << v.error().message;
    return v.value_or(ExpectPorts{});
}

std::string refused(const std::string& text)
{
    auto v = config::parseExpectPorts(text);
    EXPECT_FALSE(v.has_value()) << text;
    return v ? "" : v.error().message;
}

Device nic(const std::string& name, Role role, int state, double gbps,
           DeviceFunction function = DeviceFunction::Physical)
{
    auto d = test::device(name, state);
    d.role = role;
    d.function = function;
    d.ports[0].rate_gbps = gbps;
    d.ports[0].netdevs = {name + "_eth"};
    return d;
}

// Eight compute ports at 400 and two storage ports at 200, every netdev up.
Snapshot hgxNode()
{
    Snapshot s;
    for (int i = 0; i < 8; ++i)
        s.inventory.devices.push_back(nic(fmt::format("mlx5_{}", i), Role::Compute, 4, 400));
    s.inventory.devices.push_back(nic("mlx5_8", Role::Storage, 4, 200));
    s.inventory.devices.push_back(nic("mlx5_9", Role::Storage, 4, 200));
    for (const auto& d : s.inventory.devices)
        s.netdevs[d.ibdev + "_eth"] = {d.ibdev + "_eth", "up", true, 1};
    s.inventory.gpus = gpus(8, "0x2330");
    return s;
}

std::vector<InventoryCheck> counted(const std::string& setting, const Snapshot& s)
{
    auto checks = expectedPorts(parse(setting), s.inventory.gpus);
    countPorts(checks, s);
    return checks;
}

} // namespace

TEST(ExpectPortsSetting, AutoNoneAndOneItemPerRole)
{
    EXPECT_EQ(parse("").mode, ExpectMode::Auto) << "the default";
    EXPECT_EQ(parse(" auto ").mode, ExpectMode::Auto);
    EXPECT_EQ(parse("none").mode, ExpectMode::None);
    auto listed = parse("compute:8@400  storage:2@12.5 management:1");
    EXPECT_EQ(listed.mode, ExpectMode::Listed);
    EXPECT_EQ(listed.listed,
              (std::vector<PortExpectation>{
                  {Role::Compute, 8, 400}, {Role::Storage, 2, 12.5}, {Role::Management, 1, 0}}));
    EXPECT_NE(refused("gpu:8").find("ROLE compute, storage or management"), std::string::npos);
    EXPECT_NE(refused("compute:eight").find("COUNT must be an integer from 1 to 4096"),
              std::string::npos);
    EXPECT_NE(refused("compute:0").find("COUNT"), std::string::npos);
    EXPECT_NE(refused("compute:8@fast").find("GBPS must be a number"), std::string::npos);
    EXPECT_NE(refused("compute:8@0").find("GBPS"), std::string::npos);
    EXPECT_NE(refused("compute:8 compute:4").find("compute is listed twice"), std::string::npos);
    EXPECT_NE(refused("auto compute:8").find("'auto' is not one"), std::string::npos);
}

// The table keyed by PCI device ID (pci.ids): HGX parts allow the HGX designs at 400, A100
// boards ask at least one port at 200, PCIe cards and inference cards nothing.
TEST(GpuProfiles, ByPciDeviceId)
{
    const auto* h100 = inventory::gpuProfile("0x2330");
    ASSERT_NE(h100, nullptr);
    EXPECT_STREQ(h100->name, "NVIDIA H100 SXM5 80GB");
    EXPECT_EQ(h100->shape, inventory::GpuShape::PerGpu);
    EXPECT_EQ(h100->gbps, 400U);
    for (const char* id : {"0x2335", "0x2901", "0x2909", "0x2941", "0x3182", "0x31c2"}) {
        ASSERT_NE(inventory::gpuProfile(id), nullptr) << id;
        EXPECT_EQ(inventory::gpuProfile(id)->shape, inventory::GpuShape::PerGpu) << id;
        EXPECT_EQ(inventory::gpuProfile(id)->gbps, 400U) << id;
    }
    ASSERT_NE(inventory::gpuProfile("0x20b2"), nullptr);
    EXPECT_EQ(inventory::gpuProfile("0x20b2")->shape, inventory::GpuShape::AtLeastOne)
        << "A100 SXM4 80GB, as gpud";
    EXPECT_EQ(inventory::gpuProfile("0x20b2")->gbps, 200U);
    for (const char* id : {"0x233b", "0x2331", "0x2321", "0x20b5"}) // H200 NVL, H100 PCIe, NVL
        EXPECT_EQ(inventory::gpuProfile(id), nullptr)
            << id << ": a PCIe card's server, nothing expected";
    EXPECT_EQ(inventory::gpuProfile("0x26b9"), nullptr) << "L40S: no expectation";
    EXPECT_EQ(inventory::gpuProfile("0x1eb8"), nullptr) << "T4";
    for (const char* bad : {"", "2330", "0x", "0x2330 ", "0x12330", "0xzz"})
        EXPECT_EQ(inventory::gpuProfile(bad), nullptr) << "'" << bad << "'";
}

TEST(ExpectedPorts, AutoExpectsWhatTheGpusSay)
{
    auto eight = expectedPorts(parse("auto"), gpus(8, "0x2330"));
    ASSERT_EQ(eight.size(), 1U);
    EXPECT_EQ(eight[0].role, Role::Compute);
    EXPECT_EQ(eight[0].why, "auto: 8 × NVIDIA H100 SXM5 80GB");
    using D = InventoryCheck::Design;
    EXPECT_EQ(eight[0].designs, (std::vector<D>{{4, 400, "a port per two GPUs"},
                                                {8, 400, "a port per GPU"},
                                                {16, 200, "two ports per GPU"}}));
    EXPECT_EQ(expectedPorts(parse("auto"), gpus(1, "0x2901"))[0].designs,
              (std::vector<D>{{1, 400, "a port per GPU"}, {2, 200, "two ports per GPU"}}));
    auto a100 = expectedPorts(parse("auto"), gpus(8, "0x20b2"));
    EXPECT_EQ(a100.at(0).designs, (std::vector<D>{{1, 200, "at least one port"}}));
    EXPECT_TRUE(expectedPorts(parse("auto"), gpus(2, "0x233b")).empty()) << "H200 NVL (PCIe)";
    EXPECT_TRUE(expectedPorts(parse("auto"), {}).empty()) << "no GPU: nothing expected";
    EXPECT_TRUE(expectedPorts(parse("auto"), gpus(4, "0x26b9")).empty()) << "L40S";
    auto vfs = gpus(8, "0x2330");
    for (auto& g : vfs)
        g.virtual_function = true;
    EXPECT_TRUE(expectedPorts(parse("auto"), vfs).empty()) << "a vGPU VF is no GPU of its own";
    EXPECT_TRUE(expectedPorts(parse("none"), gpus(8, "0x2330")).empty());
    auto listed = expectedPorts(parse("storage:2@200"), gpus(8, "0x2330"));
    ASSERT_EQ(listed.size(), 1U) << "what is listed replaces auto";
    EXPECT_EQ(listed[0].role, Role::Storage);
    EXPECT_EQ(listed[0].why, "ExpectPorts=storage:2@200");
    EXPECT_TRUE(listed[0].designs.empty()) << "an explicit count is enforced as written";
}

// A PCIe card's GPUs and GPUs without a profile are said in a log line, once.
TEST(ExpectedPorts, GpusAutoCannotPlaceAreNamed)
{
    auto g = gpus(2, "0x2331");
    g.push_back({"0000:99:00.0", "", 1, "0x26b9"});
    EXPECT_EQ(unplacedGpus(g), "2 × GPU 0x2331, 1 × GPU 0x26b9 (no profile: a "
                               "PCIe card's server carries a NIC per GPU, one per two, or none "
                               "but the front end)");
    EXPECT_EQ(unplacedGpus(gpus(8, "0x2330")), "");
    EXPECT_EQ(unplacedGpus({}), "");
}

// The designs that exist are accepted; a count that fits none is judged against the nearest
// design above it; more ports than any design are judged against the one with most.
TEST(ExpectedPorts, TheNodeIsJudgedAgainstTheNearestDesignAtOrAboveIt)
{
    auto judged = [](int compute_ports, double gbps) {
        Snapshot s;
        for (int i = 0; i < compute_ports; ++i)
            s.inventory.devices.push_back(nic(fmt::format("mlx5_{}", i), Role::Compute, 4, gbps));
        for (const auto& d : s.inventory.devices)
            s.netdevs[d.ibdev + "_eth"] = {d.ibdev + "_eth", "up", true, 1};
        s.inventory.gpus = gpus(8, "0x2330");
        return counted("auto", s).at(0);
    };
    auto four = judged(4, 400);
    EXPECT_FALSE(isShort(four));
    EXPECT_EQ(describe(four), "expected 4 compute ports at ≥ 400 Gb/s (auto: 8 × NVIDIA H100 "
                              "SXM5 80GB, a port per two GPUs), found 4 up");
    auto sixteen = judged(16, 200);
    EXPECT_FALSE(isShort(sixteen));
    EXPECT_FALSE(isSlow(sixteen)) << "two ports per GPU at 200: 400 Gb/s per GPU";
    EXPECT_EQ(sixteen.design, "two ports per GPU");
    auto seven = judged(7, 400);
    EXPECT_TRUE(isShort(seven));
    EXPECT_EQ(seven.expected, 8U);
    EXPECT_EQ(missing(seven), 1U);
    EXPECT_EQ(describe(seven), "expected 8 compute ports at ≥ 400 Gb/s (auto: 8 × NVIDIA H100 "
                               "SXM5 80GB, a port per GPU), found 7 up (1 not there)");
    auto none = judged(0, 400);
    EXPECT_TRUE(isShort(none));
    EXPECT_EQ(none.expected, 4U) << "none: short of the smallest design";
    EXPECT_TRUE(isShort(judged(12, 400))) << "between 8 and 16: judged against 16";
    EXPECT_FALSE(isShort(judged(17, 200))) << "more than any design: the largest";
    EXPECT_TRUE(isSlow(judged(8, 200))) << "8 ports at 200: a port per GPU at half its rate";
}

TEST(ExpectedPorts, AFullNodeMeetsItsExpectation)
{
    auto checks = counted("compute:8@400 storage:2@200", hgxNode());
    ASSERT_EQ(checks.size(), 2U);
    for (const auto& c : checks) {
        EXPECT_FALSE(isShort(c));
        EXPECT_FALSE(isSlow(c));
    }
    EXPECT_EQ(checks[0].up, 8U);
    EXPECT_EQ(checks[0].at_rate, 8U);
    EXPECT_EQ(describe(checks[0]),
              "expected 8 compute ports at ≥ 400 Gb/s (ExpectPorts=compute:8@400), found 8 up");
}

// A port that is down is short like a NIC that is not there; a netdev that is down makes its
// port down whatever the IB state says; VFs never count; a LAG device is one port.
TEST(ExpectedPorts, DownPortsAreShortAndSayWhich)
{
    auto s = hgxNode();
    s.inventory.devices[3].ports[0].state = 1;
    s.inventory.devices[3].ports[0].state_name = "DOWN";
    s.netdevs["mlx5_5_eth"].operstate = "lowerlayerdown";
    s.inventory.devices.push_back(
        nic("mlx5_10", Role::Compute, 4, 400, DeviceFunction::VirtualFunction));
    s.inventory.devices.push_back(nic("mlx5_bond_0", Role::Compute, 4, 400, DeviceFunction::Lag));
    s.netdevs["mlx5_bond_0_eth"] = {"mlx5_bond_0_eth", "up", true, 9};
    auto c = counted("compute:9@400", s).at(0);
    EXPECT_EQ(c.up, 7U) << "6 of the 8 PFs, and the LAG device";
    EXPECT_EQ(c.present, 9U) << "the 8 PFs and the LAG device";
    EXPECT_TRUE(isShort(c));
    EXPECT_EQ(describe(c), "expected 9 compute ports at ≥ 400 Gb/s (ExpectPorts=compute:9@400), "
                           "found 7 up (mlx5_3/1 is down, mlx5_5/1 mlx5_5_eth is "
                           "lowerlayerdown)");
}

// What an operator leaves down on purpose is no missing port: an InfiniBand port whose IPoIB
// interface is down (NCCL does not use it), a RoCE port whose VLAN netdev is down while its own
// is up.
TEST(ExpectedPorts, AnIpoibOrVlanInterfaceLeftDownIsNoShortPort)
{
    auto s = hgxNode();
    s.inventory.devices[0].ports[0].link_layer = "InfiniBand";
    s.netdevs["mlx5_0_eth"].operstate = "down";
    s.inventory.devices[1].ports[0].link_layer = "Ethernet";
    s.inventory.devices[1].ports[0].netdevs.push_back("mlx5_1_eth.100");
    s.netdevs["mlx5_1_eth.100"] = {"mlx5_1_eth.100", "down", true, 20};
    auto c = counted("auto", s).at(0);
    EXPECT_EQ(c.up, 8U) << describe(c);
    EXPECT_FALSE(isShort(c));
    s.netdevs["mlx5_1_eth"].operstate = "down"; // the RoCE port's own netdev: short
    EXPECT_EQ(counted("auto", s).at(0).up, 7U);
}

TEST(ExpectedPorts, SlowPortsAndAnEmptyNode)
{
    auto s = hgxNode();
    s.inventory.devices[2].ports[0].rate_gbps = 200;
    auto c = counted("auto", s).at(0);
    EXPECT_FALSE(isShort(c));
    EXPECT_TRUE(isSlow(c));
    EXPECT_EQ(c.at_rate, 7U);
    EXPECT_EQ(describe(c), "expected 8 compute ports at ≥ 400 Gb/s (auto: 8 × NVIDIA H100 SXM5 "
                           "80GB, a port per GPU), found 8 up, 7 at that rate (mlx5_2/1 at 200 "
                           "Gb/s)");
    EXPECT_FALSE(isSlow(counted("compute:8", s).at(0))) << "no rate expected";
    s.inventory.devices[2].ports[0].rate_gbps.reset();
    EXPECT_FALSE(isSlow(counted("auto", s).at(0))) << "a rate not read is not held against it";

    Snapshot empty;
    empty.inventory.gpus = gpus(1, "0x233b");
    auto none = counted("compute:1", empty).at(0);
    EXPECT_TRUE(isShort(none));
    EXPECT_EQ(describe(none), "expected 1 compute port (ExpectPorts=compute:1), found no RDMA "
                              "device");
    empty.inventory.ignored.push_back({"mlx5_7", "0000:cd:00.0", "mlx5_7"});
    EXPECT_EQ(describe(counted("compute:1", empty).at(0)),
              "expected 1 compute port (ExpectPorts=compute:1), found 0 up (mlx5_7 is ignored "
              "(IgnoreDevices=))")
        << "an ignored device is not counted, and named";
    empty.inventory.ignored.clear();
    empty.inventory.devices.push_back(nic("mlx5_0", Role::Storage, 4, 100));
    EXPECT_EQ(describe(counted("compute:1", empty).at(0)),
              "expected 1 compute port (ExpectPorts=compute:1), found 0 up (no compute device)");
}
