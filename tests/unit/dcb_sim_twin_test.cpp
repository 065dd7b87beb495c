// bnxt's DCB twin under a simulated root: nicd-sim's DCB file with the DCBX byte and ETS that
// bnxt_dcb.c reports (freshBnxtDcb), read alike by the SDK's parser, and the SDK's SimDcb refusing
// what bnxt refuses: every set while the firmware's DCBX agent owns the port (nicd-sim's
// dcbx-firmware fault), PFC before ETS.
#include "support/bnxt_dcb_node.hpp"

#include <nicd/plugin/sdk/dcb_sim_backend.h>
#include <nicd/plugin/sdk/dcb_sim_format.h>

#include <cerrno>

#include <gtest/gtest.h>

using namespace nicd;
using BnxtDcbTwin = test::BnxtDcbNode;

TEST_F(BnxtDcbTwin, SimulatorFormatCarriesDcbxAndEts)
{
    // nicd-sim writes the file with its own code; the SDK's reader must see the same state.
    auto text = test::readFile(sim::dcbFile(dir_, kNetdev));
    auto st = plugin::sdk::parseDcbSimState(text);
    EXPECT_EQ(st.dcbx, 0x09);
    ASSERT_TRUE(st.ets);
    EXPECT_EQ(st.ets->cap, 7);
    EXPECT_TRUE(plugin::sdk::dcb::etsUnset(*st.ets));
    EXPECT_EQ(plugin::sdk::formatDcbSimState(st), text);
    EXPECT_THROW(plugin::sdk::parseDcbSimState("pfc_cap=8\npfc_en=0\nmbc=0\ndelay=0\n"
                                               "prio_tc=0,0,0,1,0,0,0,0\n"),
                 plugin::sdk::DecodeError)
        << "ETS arrays without ets_cap";
    EXPECT_THROW(plugin::sdk::parseDcbSimState("pfc_cap=8\npfc_en=0\nmbc=0\ndelay=0\n"
                                               "ets_cap=8\nprio_tc=0,0,9,0,0,0,0,0\n"),
                 plugin::sdk::DecodeError)
        << "a class above 7";
}

TEST_F(BnxtDcbTwin, SimulatedDriverRefusesSetsWhileFirmwareOwnsIt)
{
    sim::dcbxOwner(dir_, kDevice, true);
    plugin::sdk::SimDcb dcb(dir_);
    plugin::sdk::dcb::App a{5, 3, 26};
    auto s = dcb.set(kNetdev, std::nullopt, std::span(&a, 1));
    EXPECT_EQ(s.sys_errno, EINVAL) << s.message;
    EXPECT_EQ(dcb.setEts(kNetdev, {}).sys_errno, EINVAL);
    // And host-owned, PFC before any ETS: bnxt_hwrm_queue_pfc_cfg's EINVAL.
    sim::dcbxOwner(dir_, kDevice, false);
    plugin::sdk::dcb::Pfc pfc;
    pfc.enabled = 0x08;
    EXPECT_EQ(dcb.set(kNetdev, pfc, {}).sys_errno, EINVAL);
    EXPECT_THROW(sim::dcbxOwner(dir_, "mlx5_1", true), sim::SimError) << "no DCBX byte there";
}
