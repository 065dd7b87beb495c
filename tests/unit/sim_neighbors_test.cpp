// The simulated switches: the DCBX TLVs they send decode (with nicd's own decoders) to the
// configuration they were made from and agree with nicd's default host QoS; a new node's twin of
// lldpd cables each Ethernet port as documented (neighbors/neighbor_twin.hpp); each neighbour
// fault changes the twin as it says, read back with nicd's own parser.
#include "neighbor/dcbx_tlv.hpp"
#include "neighbor/lldpcli_json.hpp"
#include "neighbor/switch_qos_compare.hpp"
#include "neighbors/neighbor_twin.hpp"
#include "neighbors/switch_tlvs.hpp"
#include "sim.hpp"
#include "support/sim_tree.hpp"

#include <gtest/gtest.h>

namespace fs = std::filesystem;
using namespace nicd;
using neighbor::foldDcbxTlvs;

namespace {

neighbor::SwitchDcb dcbOf(const LldpNeighbor& n)
{
    return foldDcbxTlvs(n.org_tlvs);
}

neighbor::HostQos defaultHost()
{
    neighbor::HostQos h;
    h.pfc_priorities = {3};
    h.roce_priority = 3;
    return h;
}

std::map<std::string, std::string> labels(const sim::NeighborMap& twin)
{
    std::map<std::string, std::string> out;
    for (const auto& [nd, list] : twin) {
        std::string s;
        for (const auto& n : list)
            s += (s.empty() ? "" : "; ") + n.label();
        out[nd] = s;
    }
    return out;
}

} // namespace

TEST(SimSwitchTlvs, TheDefaultTlvsHaveTheDocumentedBytes)
{
    auto tlvs = sim::switchDcbxTlvs();
    ASSERT_EQ(tlvs.size(), 3U);
    for (const auto& t : tlvs)
        EXPECT_EQ(t.oui, neighbor::kIeee8021Oui);
    EXPECT_EQ(tlvs[0].subtype, neighbor::kSubtypeEtsConfig);
    EXPECT_EQ(neighbor::lldpcliHex(tlvs[0].info),
              "00,01,23,45,67,32,00,00,32,00,00,00,00,02,00,00,02,00,00,00,00");
    EXPECT_EQ(tlvs[1].subtype, neighbor::kSubtypePfcConfig);
    EXPECT_EQ(neighbor::lldpcliHex(tlvs[1].info), "08,08"); // willing 0, cap 8; priority 3
    EXPECT_EQ(tlvs[2].subtype, neighbor::kSubtypeAppPriority);
    // Reserved byte; priority 3 << 5 | selector 5 (DSCP), DSCP 26; priority 6, DSCP 48.
    EXPECT_EQ(neighbor::lldpcliHex(tlvs[2].info), "00,65,00,1A,C5,00,30");
}

TEST(SimSwitchTlvs, WhatIsEncodedDecodesToTheSameConfiguration)
{
    auto dcb = foldDcbxTlvs(sim::switchDcbxTlvs());
    EXPECT_TRUE(dcb.errors.empty());
    ASSERT_TRUE(dcb.ets && dcb.pfc && dcb.app);
    EXPECT_EQ(*dcb.ets, sim::switchEts());
    EXPECT_EQ(*dcb.pfc, sim::switchPfc());
    EXPECT_EQ(*dcb.app, sim::switchApp());
    EXPECT_FALSE(dcb.ets_recommendation);
    EXPECT_FALSE(dcb.cee);

    // Every field at other values too.
    neighbor::EtsConfig ets;
    ets.willing = true;
    ets.cbs = true;
    ets.max_tcs = 3;
    ets.tables.priority_tc = {7, 6, 5, 4, 3, 2, 1, 0};
    ets.tables.tc_bandwidth = {100, 0, 10, 20, 30, 40, 0, 0};
    ets.tables.tc_tsa = {neighbor::Tsa::Ets,    neighbor::Tsa::CreditBasedShaper,
                         neighbor::Tsa::Strict, neighbor::Tsa::Vendor,
                         neighbor::Tsa::Ets,    static_cast<neighbor::Tsa>(7),
                         neighbor::Tsa::Strict, neighbor::Tsa::Strict};
    EXPECT_EQ(neighbor::decodeEtsConfig(sim::encodeEtsConfig(ets)), ets);
    for (uint8_t cap = 0; cap <= 8; ++cap) {
        neighbor::PfcConfig pfc{cap % 2 == 0, cap % 3 == 0, cap, static_cast<uint8_t>(cap * 29)};
        EXPECT_EQ(neighbor::decodePfcConfig(sim::encodePfcConfig(pfc)), pfc);
    }
    neighbor::AppPriority app{{{0, neighbor::AppSelector::Ethertype, 0x8915},
                               {7, neighbor::AppSelector::DatagramPort, 4791},
                               {5, neighbor::AppSelector::Dscp, 63}}};
    EXPECT_EQ(neighbor::decodeAppPriority(sim::encodeAppPriority(app)), app);
    EXPECT_EQ(neighbor::decodeAppPriority(sim::encodeAppPriority({})), neighbor::AppPriority{});

    ets.tables.priority_tc[2] = 8;
    EXPECT_THROW(sim::encodeEtsConfig(ets), sim::SimError);
    EXPECT_THROW(sim::encodePfcConfig({false, false, 9, 0}), sim::SimError);
    EXPECT_THROW(sim::encodeAppPriority({{{3, neighbor::AppSelector::Dscp, 64}}}), sim::SimError);
}

TEST(SimSwitchTlvs, TheSwitchAgreesWithNicdsDefaultHostQos)
{
    auto dcb = foldDcbxTlvs(sim::switchDcbxTlvs());
    EXPECT_TRUE(neighbor::compareSwitchQos(dcb, defaultHost(), "leaf-01 swp1").empty());
    // PFC on 3 and 4: the one mismatch is PFC's.
    auto other = neighbor::compareSwitchQos(foldDcbxTlvs(sim::switchDcbxTlvs(0x18)), defaultHost(),
                                            "leaf-01 swp1");
    ASSERT_EQ(other.size(), 1U);
    EXPECT_EQ(other[0].setting, "pfc");
    EXPECT_EQ(other[0].switch_value, "3,4");
}

TEST(SimSwitchTlvs, PrioritiesParse)
{
    EXPECT_EQ(sim::parsePriorities("3"), 0x08);
    EXPECT_EQ(sim::parsePriorities("4,3"), 0x18);
    EXPECT_EQ(sim::parsePriorities("0,7"), 0x81);
    EXPECT_EQ(sim::parsePriorities("none"), 0);
    for (const char* bad : {"", "8", "3,", ",3", "3,3", "a", "-1", "3 4", "None"})
        EXPECT_THROW(sim::parsePriorities(bad), sim::SimError) << bad;
}

class SimNeighborsTest : public test::SimDirTest {
protected:
    void make(const sim::CreateOptions& o = {})
    {
        sim::create(dir_, o);
        sim::createNeighborTwin(dir_);
    }
    sim::NeighborMap twin() { return sim::readNeighborTwin(dir_); }
};

TEST_F(SimNeighborsTest, TheDefaultNodesEthernetPortsHearTheirLeaves)
{
    make();
    auto t = twin();
    EXPECT_EQ(labels(t), (std::map<std::string, std::string>{
                             {"ens1f0np0", "leaf-01 swp1"},
                             {"ens2f0np0", "leaf-02 swp1"},
                             {"ens3f0np0", "leaf-03 swp1"},
                             {"ens4f0np0", "leaf-04 swp1"},
                             // the LAG's members; not the bond, the VF, ib0 or the uncabled port
                             {"ens5f0np0", "storage-leaf-01 swp1"},
                             {"ens5f1np1", "storage-leaf-01 swp2"},
                         }));
    const auto& n = t.at("ens3f0np0").front();
    EXPECT_EQ(n.chassis_id_type, "mac");
    EXPECT_TRUE(n.chassis_id.starts_with("02:")) << n.chassis_id;
    EXPECT_EQ(n.chassis_id.size(), 17U);
    EXPECT_EQ(n.port_id_type, "ifname");
    EXPECT_EQ(n.ttl_seconds, 120U);
    EXPECT_EQ(n.mgmt_address, "10.0.3.1");
    EXPECT_EQ(t.at("ens5f1np1").front().mgmt_address, "10.255.1.1");
    EXPECT_EQ(t.at("ens5f0np0").front().chassis_id, t.at("ens5f1np1").front().chassis_id)
        << "one storage switch";
    EXPECT_NE(t.at("ens1f0np0").front().chassis_id, t.at("ens2f0np0").front().chassis_id);
    for (const auto& [nd, list] : t)
        EXPECT_TRUE(neighbor::compareSwitchQos(dcbOf(list.front()), defaultHost(), nd).empty())
            << nd;
    // Written as lldpcli prints it: nicd's writer, byte for byte.
    EXPECT_EQ(test::readFile(sim::neighborTwinFile(dir_)), neighbor::toLldpcliJson(t));
}

TEST_F(SimNeighborsTest, AGpuNodesComputeRailsGoToTheirLeavesAndStorageToTheStorageLeaf)
{
    sim::CreateOptions o;
    sim::applyProfile(o, "hgx-h100");
    o.storage_cards = 2;
    o.channels = 1;
    make(o);
    auto l = labels(twin());
    std::map<std::string, std::string> want;
    for (int i = 1; i <= 8; ++i)
        want[fmt::format("ens{}f0np0", i)] = fmt::format("leaf-{:02}", i) + " swp1";
    want["ens9f0np0"] = "storage-leaf-01 swp1";
    want["ens9f1np1"] = "storage-leaf-01 swp2";
    want["ens10f0np0"] = "storage-leaf-01 swp3";
    want["ens10f1np1"] = "storage-leaf-01 swp4";
    EXPECT_EQ(l, want);
}

TEST_F(SimNeighborsTest, AnInfinibandComputeFabricHasOnlyItsStoragePortsHeard)
{
    sim::CreateOptions o;
    sim::applyProfile(o, "hgx-b300");
    o.infiniband = true;
    o.channels = 1;
    make(o);
    EXPECT_EQ(labels(twin()), (std::map<std::string, std::string>{
                                  {"ens9f0np0", "storage-leaf-01 swp1"},
                                  {"ens9f1np1", "storage-leaf-01 swp2"},
                              }));
    EXPECT_THROW(sim::neighborClear(dir_, "mlx5_0"), sim::SimError) << "InfiniBand: no LLDP";
}

// No NIC beside a GPU: the front-end card on the GPUs' socket is compute (nicd's role), its
// ports the rails.
TEST_F(SimNeighborsTest, APcieGpuServersFrontEndCardIsItsComputeRails)
{
    sim::CreateOptions o;
    sim::applyProfile(o, "pcie-h100");
    o.channels = 1;
    make(o);
    EXPECT_EQ(labels(twin()), (std::map<std::string, std::string>{
                                  {"ens1f0np0", "leaf-01 swp1"},
                                  {"ens1f1np1", "leaf-02 swp1"},
                              }));
}

TEST_F(SimNeighborsTest, ADevicesNodeHasARailEach)
{
    make({.devices = 6, .channels = 1, .vendors = "mlx5,bnxt"});
    auto t = twin();
    ASSERT_EQ(t.size(), 6U);
    std::set<std::string> leaves;
    for (const auto& [nd, list] : t)
        leaves.insert(list.front().switchName());
    EXPECT_EQ(leaves, (std::set<std::string>{"leaf-01", "leaf-02", "leaf-03", "leaf-04", "leaf-05",
                                             "leaf-06"}));
}

TEST_F(SimNeighborsTest, NeighborRecablesAPortAndNeighborClearLeavesItDeaf)
{
    make();
    const auto tlvs = twin().at("ens1f0np0").front().org_tlvs;
    sim::neighborSet(dir_, "mlx5_0", "leaf-07", "swp12");
    auto t = twin();
    ASSERT_EQ(t.at("ens1f0np0").size(), 1U);
    const auto& n = t.at("ens1f0np0").front();
    EXPECT_EQ(n.label(), "leaf-07 swp12");
    EXPECT_EQ(n.mgmt_address, "10.0.7.1");
    EXPECT_EQ(n.org_tlvs, tlvs);
    // The same switch name is the same switch: its chassis ID and address.
    const auto leaf07 = twin().at("ens1f0np0").front();
    sim::neighborSet(dir_, "mlx5_1", "leaf-07", "swp13");
    EXPECT_EQ(twin().at("ens2f0np0").front().chassis_id, leaf07.chassis_id);
    EXPECT_EQ(twin().at("ens2f0np0").front().mgmt_address, leaf07.mgmt_address);

    sim::neighborClear(dir_, "mlx5_0");
    EXPECT_FALSE(twin().contains("ens1f0np0"));
    // Cabled again: the default TLVs, as a switch port sends them.
    sim::neighborSet(dir_, "mlx5_0", "leaf-01", "swp1");
    EXPECT_EQ(twin().at("ens1f0np0").front(), sim::switchPort("leaf-01", "swp1", tlvs));
    EXPECT_THROW(sim::neighborSet(dir_, "mlx5_0", "", "swp1"), sim::SimError);
    EXPECT_THROW(sim::neighborSet(dir_, "mlx5_0", "leaf", std::string(256, 'x')), sim::SimError);
    EXPECT_THROW(sim::neighborSet(dir_, "mlx5_4", "leaf-01", "swp1"), sim::SimError) << "ib0";
    EXPECT_THROW(sim::neighborSet(dir_, "mlx5_5", "leaf-01", "swp1"), sim::SimError) << "a VF";
    EXPECT_THROW(sim::neighborSet(dir_, "mlx5_9", "leaf-01", "swp1"), sim::SimError);
}

TEST_F(SimNeighborsTest, NeighborAddIsASecondNeighbourOnThePortAndItsClearKeepsTheFirst)
{
    make();
    const auto before = twin();
    sim::neighborAdd(dir_, "mlx5_bond_0", "leaf-02", "swp9"); // a LAG: its first member
    auto t = twin();
    ASSERT_EQ(t.at("ens5f0np0").size(), 2U);
    EXPECT_EQ(t.at("ens5f0np0")[0], before.at("ens5f0np0")[0]);
    EXPECT_EQ(t.at("ens5f0np0")[1].label(), "leaf-02 swp9");
    EXPECT_TRUE(dcbOf(t.at("ens5f0np0")[1]).pfc);
    sim::neighborAddClear(dir_, "mlx5_bond_0");
    EXPECT_EQ(twin(), before);
    // On a port that hears nobody, it is the only neighbour.
    sim::neighborClear(dir_, "mlx5_2");
    sim::neighborAdd(dir_, "mlx5_2", "hub", "1");
    EXPECT_EQ(labels(twin()).at("ens3f0np0"), "hub 1");
}

TEST_F(SimNeighborsTest, CableSwapSwapsTheTwoPortsNeighboursAndItsClearSwapsThemBack)
{
    make();
    const auto before = twin();
    sim::cableSwap(dir_, "mlx5_0", "mlx5_3");
    auto t = twin();
    EXPECT_EQ(t.at("ens1f0np0"), before.at("ens4f0np0"));
    EXPECT_EQ(t.at("ens4f0np0"), before.at("ens1f0np0"));
    sim::cableSwap(dir_, "mlx5_3", "mlx5_0"); // cable-swap-clear
    EXPECT_EQ(twin(), before);
    // With a port that hears nobody: the neighbour moves.
    sim::neighborClear(dir_, "mlx5_1");
    sim::cableSwap(dir_, "mlx5_0", "mlx5_1");
    t = twin();
    EXPECT_FALSE(t.contains("ens1f0np0"));
    EXPECT_EQ(t.at("ens2f0np0"), before.at("ens1f0np0"));
    EXPECT_THROW(sim::cableSwap(dir_, "mlx5_0", "mlx5_0"), sim::SimError);
}

TEST_F(SimNeighborsTest, SwitchPfcChangesOnlyThePfcTlvAndItsClearRestoresTheDefault)
{
    make();
    const auto before = twin();
    sim::switchPfcSet(dir_, "mlx5_0", sim::parsePriorities("3,4"));
    auto t = twin();
    auto dcb = dcbOf(t.at("ens1f0np0").front());
    ASSERT_TRUE(dcb.pfc);
    EXPECT_EQ(dcb.pfc->enabled_bitmap, 0x18);
    EXPECT_EQ(dcb.pfc->capability, 8);
    EXPECT_FALSE(dcb.pfc->willing);
    EXPECT_EQ(dcb.ets, sim::switchEts());
    EXPECT_EQ(dcb.app, sim::switchApp());
    EXPECT_EQ(t.at("ens1f0np0").front().org_tlvs.size(), 3U);
    EXPECT_EQ(t.at("ens2f0np0"), before.at("ens2f0np0"));
    sim::switchPfcSet(dir_, "mlx5_0", sim::parsePriorities("none"));
    EXPECT_EQ(dcbOf(twin().at("ens1f0np0").front()).pfc->enabled_bitmap, 0);
    sim::switchPfcClear(dir_, "mlx5_0");
    EXPECT_EQ(twin(), before);
    sim::neighborClear(dir_, "mlx5_0");
    EXPECT_THROW(sim::switchPfcSet(dir_, "mlx5_0", 0x08), sim::SimError) << "no neighbour";
}

TEST_F(SimNeighborsTest, LldpdStopMovesTheTwinAsideAndItsClearBringsItBack)
{
    make();
    const auto text = test::readFile(sim::neighborTwinFile(dir_));
    sim::lldpdStop(dir_, true);
    EXPECT_FALSE(fs::exists(sim::neighborTwinFile(dir_)));
    EXPECT_EQ(test::readFile(sim::stoppedTwinFile(dir_)), text);
    EXPECT_THROW(sim::lldpdStop(dir_, true), sim::SimError);
    EXPECT_THROW(sim::neighborClear(dir_, "mlx5_0"), sim::SimError) << "lldpd is stopped";
    sim::lldpdStop(dir_, false);
    EXPECT_EQ(test::readFile(sim::neighborTwinFile(dir_)), text);
    EXPECT_FALSE(fs::exists(sim::stoppedTwinFile(dir_)));
    sim::lldpdStop(dir_, false); // running: nothing to do
    EXPECT_EQ(test::readFile(sim::neighborTwinFile(dir_)), text);
}

TEST_F(SimNeighborsTest, ANodeWithoutTwinRefusesNeighbourFaults)
{
    sim::create(dir_, {.channels = 1});
    EXPECT_THROW(sim::neighborClear(dir_, "mlx5_0"), sim::SimError);
    EXPECT_THROW(sim::lldpdStop(dir_, true), sim::SimError);
}

TEST_F(SimNeighborsTest, ARenamedDeviceKeepsItsNetdevsNeighbours)
{
    make();
    const auto before = twin();
    sim::rename(dir_, "mlx5_0", "rocep26s0f0"); // the RDMA device's name only: netdevs stay
    EXPECT_EQ(twin(), before);
    sim::neighborSet(dir_, "rocep26s0f0", "leaf-05", "swp2");
    EXPECT_EQ(labels(twin()).at("ens1f0np0"), "leaf-05 swp2");
}

TEST_F(SimNeighborsTest, AFaultLeavesNoTemporaryFileBehind)
{
    make();
    sim::switchPfcSet(dir_, "mlx5_0", 0x10);
    EXPECT_EQ(test::namesIn(sim::neighborTwinFile(dir_).parent_path()),
              (std::set<std::string>{"neighbors.json"}));
}
