// lldpcli's json0 neighbours (the simulator's twin of lldpd and what a capture records): a real
// lldpd 1.0.16 capture (tests/data/lldp/SOURCES.md), the round trip through toLldpcliJson, and
// every malformed shape a hostile capture could hold, each with an error naming the interface and
// key.
#include "neighbor/dcbx_tlv.hpp"
#include "neighbor/lldpcli_json.hpp"
#include "support/decode_error.hpp"

#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

namespace nicd::neighbor {

namespace {

using test::decodeErrorOf;

std::string slurp(const std::string& rel)
{
    std::ifstream in(std::string(NICD_SOURCE_DIR) + "/tests/data/" + rel);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// One interface's entry of lldpcli's json0 with `body` spliced into it.
std::string oneInterface(const std::string& name, const std::string& body)
{
    return R"({"lldp": [{"interface": [{"name": ")" + name + R"(", "via": "LLDP")" +
           (body.empty() ? "" : ", " + body) + "}]}]}";
}

} // namespace

TEST(LldpcliJson, RealLldpdCaptureNamesTheSwitchItsPortAndItsDcbxTlvs)
{
    auto by_netdev = parseLldpcliNeighbors(slurp("lldp/lldpd-1.0.16-json0.json"));
    ASSERT_EQ(by_netdev.size(), 1u);
    ASSERT_EQ(by_netdev.at("h0").size(), 1u);
    const LldpNeighbor& n = by_netdev.at("h0").front();
    EXPECT_EQ(n.system_name, "leaf-07");
    EXPECT_EQ(n.chassis_id_type, "mac");
    EXPECT_EQ(n.chassis_id, "32:93:9e:8c:e0:7c");
    EXPECT_EQ(n.port_id_type, "mac");
    EXPECT_EQ(n.port_descr, "swp1");
    // The port ID is a MAC: the switch names its port in the description.
    EXPECT_EQ(n.portName(), "swp1");
    EXPECT_EQ(n.label(), "leaf-07 swp1");
    EXPECT_EQ(n.mgmt_address, "fe80::3093:9eff:fe8c:e07c");
    EXPECT_EQ(n.ttl_seconds, 4u);
    ASSERT_EQ(n.org_tlvs.size(), 2u);
    EXPECT_EQ(n.org_tlvs[0], (OrgTlv{kIeee8021Oui, kSubtypePfcConfig, {0x08, 0x18}}));
    EXPECT_EQ(n.org_tlvs[1], (OrgTlv{kIeee8021Oui, kSubtypeAppPriority, {0x00, 0x5d, 0x00, 0x1a}}));
    // What the DCBX fold makes of it: PFC on 3 and 4, DSCP 26 on priority 3.
    SwitchDcb dcb = foldDcbxTlvs(n.org_tlvs);
    ASSERT_TRUE(dcb.pfc);
    EXPECT_EQ(dcb.pfc->enabled_bitmap, 0x18);
    ASSERT_TRUE(dcb.app);
    EXPECT_EQ(dcb.app->entries.front().protocol, 26);
}

TEST(LldpcliJson, NoNeighbourIsAnEmptyMap)
{
    // lldpcli's own answer when lldpd knows no neighbour, and an empty file.
    EXPECT_TRUE(parseLldpcliNeighbors("{\n  \"lldp\": [\n    {\n      \n    }\n  ]\n}\n").empty());
    EXPECT_TRUE(parseLldpcliNeighbors("").empty());
    EXPECT_TRUE(parseLldpcliNeighbors("{}").empty());
}

TEST(LldpcliJson, PortIdAnInterfaceNameIsThePortName)
{
    auto m = parseLldpcliNeighbors(oneInterface(
        "ens1f0np0", R"("chassis": [{"id": [{"type": "mac", "value": "0c:42:a1:00:07:00"}]}],
                        "port": [{"id": [{"type": "ifname", "value": "swp12"}],
                                  "descr": [{"value": "to gpu-017 rail 3"}]}])"));
    const LldpNeighbor& n = m.at("ens1f0np0").front();
    EXPECT_EQ(n.portName(), "swp12");
    // No system name: the chassis ID names the switch.
    EXPECT_EQ(n.label(), "0c:42:a1:00:07:00 swp12");
    EXPECT_EQ(n.ttl_seconds, 0u);
}

TEST(LldpcliJson, TtlUnderTheChassisAsOlderLldpdPrintedIt)
{
    auto m = parseLldpcliNeighbors(oneInterface(
        "eth0",
        R"("chassis": [{"id": [{"type": "local", "value": "sw"}], "ttl": [{"value": "120"}]}],
                   "port": [{"id": [{"type": "local", "value": "1"}]}])"));
    EXPECT_EQ(m.at("eth0").front().ttl_seconds, 120u);
}

TEST(LldpcliJson, TwoNeighboursOnOneInterfaceAreBothKept)
{
    const std::string one =
        R"({"name": "eth2", "chassis": [{"name": [{"value": "leaf-07"}]}],
            "port": [{"id": [{"type": "ifname", "value": "swp12"}]}]})";
    const std::string two =
        R"({"name": "eth2", "chassis": [{"name": [{"value": "leaf-08"}]}],
            "port": [{"id": [{"type": "ifname", "value": "swp12"}]}]})";
    auto m = parseLldpcliNeighbors(R"({"lldp": [{"interface": [)" + one + "," + two + "]}]}");
    ASSERT_EQ(m.at("eth2").size(), 2u);
    EXPECT_EQ(m.at("eth2")[0].system_name, "leaf-07");
    EXPECT_EQ(m.at("eth2")[1].system_name, "leaf-08");
}

TEST(LldpcliJson, WhatItWritesReadsBackTheSame)
{
    std::map<std::string, std::vector<LldpNeighbor>> m;
    LldpNeighbor n;
    n.chassis_id = "0c:42:a1:00:07:00";
    n.chassis_id_type = "mac";
    n.system_name = "leaf-07";
    n.port_id = "swp12";
    n.port_id_type = "ifname";
    n.port_descr = "gpu-017 rail 3";
    n.mgmt_address = "10.0.7.1";
    n.ttl_seconds = 120;
    n.org_tlvs = {{kIeee8021Oui, kSubtypePfcConfig, {0x08, 0x08}}, {kIeee8021Oui, 9, {}}};
    m["ens1f0np0"] = {n};
    LldpNeighbor bare;
    bare.chassis_id = "sw";
    bare.chassis_id_type = "local";
    bare.port_id = "1";
    bare.port_id_type = "local";
    m["ens2f0np0"] = {bare, n};
    EXPECT_EQ(parseLldpcliNeighbors(toLldpcliJson(m)), m);
    // As lldpcli prints it: hex bytes upper case, comma separated; numbers as strings.
    EXPECT_NE(toLldpcliJson(m).find(R"("value": "08,08")"), std::string::npos);
    EXPECT_NE(toLldpcliJson(m).find(R"("oui": "00,80,C2")"), std::string::npos);
}

TEST(LldpcliJson, HexBytesAsLldpcliPrintsThem)
{
    EXPECT_EQ(parseLldpcliHex("08,18"), (std::vector<uint8_t>{0x08, 0x18}));
    EXPECT_EQ(parseLldpcliHex("aB"), (std::vector<uint8_t>{0xab}));
    EXPECT_TRUE(parseLldpcliHex("").empty());
    EXPECT_EQ(lldpcliHex({0x00, 0x80, 0xc2}), "00,80,C2");
    for (const char* bad : {"8", "08,", "08 18", "0g", ",08", "08,,18", "0818"})
        EXPECT_NE(decodeErrorOf([&] { parseLldpcliHex(bad); }).find("lldpcli's hex"),
                  std::string::npos)
            << bad;
    std::string long_tlv = "00";
    for (int i = 0; i < 507; ++i)
        long_tlv += ",00";
    EXPECT_NE(decodeErrorOf([&] { parseLldpcliHex(long_tlv); }).find("more than 507"),
              std::string::npos);
}

TEST(LldpcliJson, MalformedCapturesAreRefusedNamingWhere)
{
    struct Case {
        std::string json;
        std::string says;
    };
    const std::vector<Case> cases{
        {"not json", "not lldpcli's JSON"},
        {"[]", "not lldpcli's JSON"},
        {R"({"lldp": {"interface": {}}})", "\"lldp\" is not an array"},
        {R"({"lldp": [{"interface": {"eth0": {}}}]})", "\"interface\" is not an array"},
        {oneInterface("../../etc", ""), "not a netdev's name"},
        {oneInterface("a-name-of-16-chr", ""), "not a netdev's name"},
        {oneInterface("eth 0", ""), "not a netdev's name"},
        {R"({"lldp": [{"interface": [{"name": 7}]}]})", "\"name\" is not a string"},
        {oneInterface("eth0",
                      R"("chassis": [{"name": [{"value": ")" + std::string(256, 'x') + R"("}]}])"),
         "interface eth0 chassis name: \"value\" is 256 bytes"},
        {oneInterface("eth0", R"("port": [{"ttl": [{"value": "-1"}]}])"),
         "interface eth0 ttl: \"-1\" is not a number"},
        {oneInterface("eth0", R"("port": "x")"), "interface eth0: \"port\" is not an array"},
        {oneInterface("eth0", R"("unknown-tlvs": [{"unknown-tlv": [{"oui": "00,80",
                                  "subtype": "11", "value": "08"}]}])"),
         "interface eth0 unknown-tlv: OUI \"00,80\" is not 3 bytes"},
        {oneInterface("eth0", R"("unknown-tlvs": [{"unknown-tlv": [{"oui": "00,80,C2",
                                  "subtype": "300", "value": "08"}]}])"),
         "subtype 300 is not a byte"},
        {oneInterface("eth0", R"("unknown-tlvs": [{"unknown-tlv": [{"oui": "00,80,C2",
                                  "subtype": "11", "value": "zz"}]}])"),
         "lldpcli's hex"},
    };
    for (const Case& c : cases)
        EXPECT_NE(decodeErrorOf([&] { parseLldpcliNeighbors(c.json); }).find(c.says),
                  std::string::npos)
            << c.json << "\n  got: " << decodeErrorOf([&] { parseLldpcliNeighbors(c.json); });
}

TEST(LldpcliJson, MoreNeighboursThanLldpdKeepsIsRefused)
{
    std::string list;
    for (size_t i = 0; i <= kMaxNeighborsPerNetdev; ++i)
        list += std::string(i ? "," : "") + R"({"name": "eth0"})";
    EXPECT_NE(decodeErrorOf([&] {
                  parseLldpcliNeighbors(R"({"lldp": [{"interface": [)" + list + "]}]}");
              }).find("interface eth0: more than 16 neighbours"),
              std::string::npos);
}

} // namespace nicd::neighbor
