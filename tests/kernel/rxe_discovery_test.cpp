// Discovery on the kernel's own RDMA stack: what nicd makes of rxe0 (a soft-RoCE port on veth0)
// is what the kernel says of it, through the built nicd and through the readers it runs.
#include "config/host_paths.hpp"
#include "health/readiness_checks.hpp"
#include "inventory/sysfs_inventory.hpp"
#include "readiness/gid_text.hpp"
#include "readiness/readiness_source.hpp"
#include "support/rxe_node.hpp"

#include <algorithm>

using namespace nicd;
using namespace nicd::test;

namespace {

class RxeDiscovery : public RxeNodeTest {};

std::string sysfsValue(const std::filesystem::path& file)
{
    auto text = readFile(file);
    while (!text.empty() && text.back() == '\n')
        text.pop_back();
    return text;
}

TEST_F(RxeDiscovery, NicdReportsThePortAsTheKernelHasIt)
{
    auto r = once();
    ASSERT_EQ(r.exit_code, 0) << r.log;
    const nlohmann::json* rxe = nullptr;
    for (const auto& d : r.json["devices"])
        if (d["device"] == kRxe)
            rxe = &d;
    ASSERT_NE(rxe, nullptr) << r.json.dump(1);
    EXPECT_EQ((*rxe)["role"], "compute");
    ASSERT_EQ((*rxe)["ports"].size(), 1U);
    const auto& p = (*rxe)["ports"][0];
    EXPECT_EQ(p["port"], 1);
    EXPECT_EQ(p["state"], "ACTIVE");
    EXPECT_EQ(p["phys_state"], "LinkUp");
    EXPECT_EQ(p["link_layer"], "Ethernet");
    EXPECT_EQ(p["netdevs"], nlohmann::json::array({kRxeNetdev}));
    EXPECT_EQ(p["health"], "healthy") << r.json["conditions"].dump(1);
    EXPECT_EQ(r.json["node_health"], "healthy");
    // The textfile: the kernel's rate text, and the port ready.
    const auto prom = readFile(r.json["textfile"].get<std::string>());
    EXPECT_NE(
        prom.find("nicd_port_info{device=\"rxe0\",port=\"1\",link_layer=\"Ethernet\",rate=\"" +
                  sysfsValue(kRxeSysfs / "ports/1/rate") + "\"} 1"),
        std::string::npos)
        << prom;
    EXPECT_NE(prom.find("nicd_port_ready{device=\"rxe0\",port=\"1\"} 1"), std::string::npos)
        << prom;
}

TEST_F(RxeDiscovery, GidsTypesNetdevsAndTheVerbsNodeAreRead)
{
    const HostPaths host("/");
    auto inv = inventory::discoverInventory(host);
    for (auto& dev : inv.devices) // as [device:rxe0] Role=compute makes it
        if (dev.ibdev == kRxe)
            dev.role = Role::Compute;
    const Device* d = inv.find(kRxe);
    ASSERT_NE(d, nullptr);
    ASSERT_EQ(d->ports.size(), 1U);
    const Port& port = d->ports[0];
    EXPECT_EQ(port.rate, sysfsValue(kRxeSysfs / "ports/1/rate"));
    ASSERT_TRUE(port.rate_gbps);
    EXPECT_GT(*port.rate_gbps, 0);

    auto in = readiness::readReadiness(host, inv);
    const auto& ports = in.ports.at({kRxe, 1});
    EXPECT_TRUE(ports.gids_listed) << "unused slots read as zeros; their types answer EINVAL";
    // The IPv4-mapped RoCE v2 GID of 192.0.2.1 and that of 2001:db8::1, both on veth0.
    auto has = [&](const std::string& address, const std::string& type) {
        return std::any_of(ports.gids.begin(), ports.gids.end(), [&](const GidEntry& g) {
            return readiness::gidAddress(g.gid) == address && g.type == type &&
                   g.netdev == kRxeNetdev;
        });
    };
    EXPECT_TRUE(has("::ffff:192.0.2.1", "RoCE v2"));
    EXPECT_TRUE(has("2001:db8::1", "RoCE v2"));
    // And the link-local one of veth0's MAC. rxe has RoCE v2 entries only (mlx5 lists each
    // address twice, v1 and v2): nothing nicd reads depends on the pairs.
    const auto link_local = std::count_if(ports.gids.begin(), ports.gids.end(), [](const auto& g) {
        return readiness::gidAddress(g.gid).starts_with("fe80::") && g.type == "RoCE v2";
    });
    EXPECT_EQ(link_local, 1);
    EXPECT_EQ(ports.mtu_netdev, kRxeNetdev);
    ASSERT_TRUE(ports.mtu);
    EXPECT_EQ(*ports.mtu, std::stoul(sysfsValue("/sys/class/net/veth0/mtu")));

    // rxe0 has no PCI parent: its verbs device is found all the same.
    const auto& verbs = in.verbs.at(kRxe);
    EXPECT_TRUE(verbs.listed);
    EXPECT_EQ(verbs.name, "uverbs0");
    EXPECT_TRUE(verbs.dev_node);

    auto checks = health::judgeReadiness(inv, in, 1024);
    ASSERT_TRUE(checks.contains({kRxe, 1}));
    for (const auto& c : checks.at({kRxe, 1}))
        EXPECT_TRUE(c.verdict == ReadyCheck::Verdict::Ok ||
                    c.verdict == ReadyCheck::Verdict::Skipped)
            << c.check << ": " << toString(c.verdict) << " (" << c.saw << ")";
}

} // namespace
