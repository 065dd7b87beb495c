// The capture's scrubbing of what lldpd hears: every switch identity (chassis ID of any kind,
// system name, management address, a port ID that is a MAC) becomes a fake of its kind, the same
// fake wherever the same original stands (the netdevs' MACs and the routes' addresses share the
// map); the port names, TTLs and TLVs nicd judges come through unchanged, and --keep-identifiers
// keeps it all.
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

TEST(CaptureNeighbors, SwitchIdentitiesBecomeFakesAndWhatNicdJudgesStays)
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
            EXPECT_NE(g.chassis_id, w.chassis_id) << nd;
            EXPECT_EQ(g.chassis_id_type, w.chassis_id_type);
            EXPECT_EQ(g.system_name.empty(), w.system_name.empty());
            if (!w.system_name.empty()) {
                EXPECT_NE(g.system_name, w.system_name);
            }
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
    EXPECT_EQ(a.system_name, b.system_name);
    EXPECT_EQ(a.mgmt_address, b.mgmt_address);
    EXPECT_EQ(a.chassis_id, ids.hwAddress("b8:3f:d2:5a:00:02")) << "the map's fake for that MAC";
    EXPECT_TRUE(a.system_name.starts_with("host-")) << a.system_name;
    EXPECT_TRUE(a.mgmt_address.starts_with("198.18.0.")) << a.mgmt_address;
    const auto& c = got.at("ens2f0np0")[1];
    EXPECT_TRUE(c.chassis_id.starts_with("198.18.0.")) << c.chassis_id;
    EXPECT_TRUE(c.mgmt_address.starts_with("2001:db8::")) << c.mgmt_address;
    EXPECT_TRUE(c.port_id.starts_with("02:00:00:00:00:")) << c.port_id;
    EXPECT_TRUE(got.at("eno1")[0].chassis_id.starts_with("host-")) << "a local chassis ID";
    const auto text = scrubNeighbors(json, ids);
    for (const char* id : {"b8:3f:d2", "leaf-07", "corp.example.com", "192.168.40.7", "10.1.2.3",
                           "fd00::1:2", "FDO2231X0AB", "tor-3"})
        EXPECT_EQ(text.find(id), std::string::npos) << id;
}

// A name that is a number or a plain word is faked in the twin alone: the scrub's last pass
// would otherwise replace it in every file (a counter's "1", a word of a configuration comment).
TEST(CaptureNeighbors, APlainNameIsFakedInTheTwinAlone)
{
    IdentifierMap ids;
    std::map<std::string, std::vector<LldpNeighbor>> twin{
        {"ens1f0np0", {heard("1", "local", "switch", "7", "local", "")}},
        {"ens2f0np0", {heard("1", "local", "switch", "8", "local", "")}},
    };
    auto got = neighbor::parseLldpcliNeighbors(scrubNeighbors(neighbor::toLldpcliJson(twin), ids));
    const auto& a = got.at("ens1f0np0")[0];
    EXPECT_EQ(a.chassis_id, "switch-1");
    EXPECT_EQ(a.system_name, "switch-2");
    EXPECT_EQ(got.at("ens2f0np0")[0].chassis_id, "switch-1");
    EXPECT_EQ(got.at("ens2f0np0")[0].system_name, "switch-2");
    EXPECT_TRUE(ids.knownForms().empty()) << "nothing to replace elsewhere";
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
