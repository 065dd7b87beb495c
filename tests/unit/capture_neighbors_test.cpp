// The capture's scrubbing of what lldpd hears: every switch address (a chassis ID that is a MAC
// or an IP address, the management address, a port ID that is a MAC) becomes a fake of its kind,
// the same fake wherever the same original stands (the netdevs' MACs and the routes' addresses
// share the map); the switches' names (system name, a chassis ID that is a name), the port names,
// TTLs and TLVs nicd judges come through unchanged, so that the wiring map's globs judge the
// replay as they judged the node; --keep-identifiers keeps it all.
#include "capture/identifier_map.hpp"
#include "capture/neighbors_capture.hpp"
#include "neighbor/lldpcli_json.hpp"

#include <gtest/gtest.h>

using namespace nicd;
using namespace nicd::sim::capture;

namespace {

LldpNeighbor heard(std::string chassis, std::string chassis_type, std::string name,
                   std::string port, std::string port_type, std::string mgmt)
{
    LldpNeighbor n;
    n.chassis_id = std::move(chassis);
    n.chassis_id_type = std::move(chassis_type);
    n.system_name = std::move(name);
    n.port_id = std::move(port);
    n.port_id_type = std::move(port_type);
    n.port_descr = "Ethernet12/1";
    n.mgmt_address = std::move(mgmt);
    n.ttl_seconds = 120;
    n.org_tlvs = {{{0x00, 0x80, 0xC2}, 11, {0x08, 0x08}}};
    return n;
}

std::map<std::string, std::vector<LldpNeighbor>> site()
{
    return {
        {"ens1f0np0",
         {heard("b8:3f:d2:5a:00:02", "mac", "leaf-07.dc3.corp.example.com", "swp12", "ifname",
                "192.168.40.7")}},
        {"ens2f0np0",
         {heard("b8:3f:d2:5a:00:02", "mac", "leaf-07.dc3.corp.example.com", "swp13", "ifname",
                "192.168.40.7"),
          heard("10.1.2.3", "ip", "", "b8:3f:d2:5a:00:99", "mac", "fd00::1:2")}},
        {"eno1", {heard("FDO2231X0AB", "local", "tor-3", "Gi1/0/7", "local", "")}},
    };
}

} // namespace

TEST(CaptureNeighbors, SwitchAddressesBecomeFakesAndWhatNicdJudgesStays)
{
    IdentifierMap ids;
    const auto original = site();
    const auto json = neighbor::toLldpcliJson(original);
    auto got = neighbor::parseLldpcliNeighbors(scrubNeighbors(json, ids));
    ASSERT_EQ(got.size(), original.size());
    for (const auto& [nd, list] : original) {
        ASSERT_EQ(got.at(nd).size(), list.size()) << nd;
        for (size_t i = 0; i < list.size(); ++i) {
            const auto& w = list[i];
            const auto& g = got.at(nd)[i];
            const bool address = w.chassis_id_type == "mac" || w.chassis_id_type == "ip";
            EXPECT_EQ(g.chassis_id == w.chassis_id, !address) << nd << " " << g.chassis_id;
            EXPECT_EQ(g.chassis_id_type, w.chassis_id_type);
            EXPECT_EQ(g.system_name, w.system_name) << "the map's globs name switches";
            EXPECT_EQ(g.mgmt_address.empty(), w.mgmt_address.empty());
            if (!w.mgmt_address.empty()) {
                EXPECT_NE(g.mgmt_address, w.mgmt_address);
            }
            EXPECT_EQ(g.port_id_type, w.port_id_type);
            EXPECT_EQ(g.port_id == w.port_id, w.port_id_type != "mac") << g.port_id;
            EXPECT_EQ(g.port_descr, w.port_descr);
            EXPECT_EQ(g.ttl_seconds, w.ttl_seconds);
            EXPECT_EQ(g.org_tlvs, w.org_tlvs);
        }
    }
    // One switch, one fake; each kind in its own shape.
    const auto& a = got.at("ens1f0np0")[0];
    const auto& b = got.at("ens2f0np0")[0];
    EXPECT_EQ(a.chassis_id, b.chassis_id);
    EXPECT_EQ(a.mgmt_address, b.mgmt_address);
    EXPECT_EQ(a.chassis_id, ids.hwAddress("b8:3f:d2:5a:00:02")) << "the map's fake for that MAC";
    EXPECT_TRUE(a.mgmt_address.starts_with("198.18.0.")) << a.mgmt_address;
    const auto& c = got.at("ens2f0np0")[1];
    EXPECT_TRUE(c.chassis_id.starts_with("198.18.0.")) << c.chassis_id;
    EXPECT_TRUE(c.mgmt_address.starts_with("2001:db8::")) << c.mgmt_address;
    EXPECT_TRUE(c.port_id.starts_with("02:00:00:00:00:")) << c.port_id;
    EXPECT_EQ(got.at("eno1")[0].chassis_id, "FDO2231X0AB") << "a chassis ID that is a name";
    const auto text = scrubNeighbors(json, ids);
    for (const char* id : {"b8:3f:d2", "192.168.40.7", "10.1.2.3", "fd00::1:2"})
        EXPECT_EQ(text.find(id), std::string::npos) << id;
    for (const char* name : {"leaf-07.dc3.corp.example.com", "tor-3", "swp12"})
        EXPECT_NE(text.find(name), std::string::npos) << name;
}

TEST(CaptureNeighbors, KeepingIdentifiersKeepsTheTwin)
{
    IdentifierMap keep(true);
    const auto twin = neighbor::toLldpcliJson(site());
    EXPECT_EQ(scrubNeighbors(twin, keep), twin);
}

TEST(CaptureNeighbors, ATwinThatDoesNotParseThrows)
{
    IdentifierMap ids;
    EXPECT_ANY_THROW(scrubNeighbors("{\"lldp\": 3}", ids));
    EXPECT_EQ(neighbor::parseLldpcliNeighbors(scrubNeighbors("", ids)).size(), 0U);
}
