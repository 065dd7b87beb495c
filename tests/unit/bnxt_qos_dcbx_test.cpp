// The bnxt plugin's DCB steps on one netdev against the kernel's bytes: each IEEE_GET answered by
// an rtnetlink reply in bnxt's shape (bnxt_dcb.c's getets/getpfc/getdcbx as dcbnl_ieee_fill lays
// them out), each SET/DEL by dcbnl_ieee_set's status byte, both decoded by the SDK's codec. A port
// the firmware's DCBX agent owns is read, reported and never written, and logged once per owner
// change; a host-owned fresh port gets its DSCP entry, ETS, then PFC, in that order.
#include "bnxt/qos/dcb_port.hpp"
#include "support/dcb_messages.hpp"
#include "support/sim_host.hpp"

#include <nicd/plugin/sdk/dcb_errors.h>

#include <cerrno>

#include <gtest/gtest.h>

using namespace nicd;
namespace pv1 = nicd::plugin::v1;
namespace sdk = nicd::plugin::sdk;
namespace dcb = nicd::plugin::sdk::dcb;

namespace {

// The kernel, as bytes: the DCB state it reports (its next IEEE_GET reply) and the errno its
// driver gives the next changes (0 = accepted). What nicd asked for is recorded, in order.
class BnxtKernel final : public sdk::DcbAccess {
public:
    dcb::DcbState state;      // reported by IEEE_GET
    std::vector<int> refusal; // what the driver's op returns for each change in turn (missing: 0)
    std::vector<std::string> requests;

    pv1::Status get(std::string_view netdev, dcb::DcbState& out) override
    {
        auto reply =
            decode([&] { return dcb::decodeGetReply(test::ieeeGetReply(seq_, state), seq_); });
        ++seq_;
        out = reply.state;
        EXPECT_EQ(out.ifname, netdev);
        return pv1::Status::ok();
    }
    pv1::Status set(std::string_view netdev, const std::optional<dcb::Pfc>& pfc,
                    std::span<const dcb::App> apps) override
    {
        std::string what;
        if (pfc)
            what = "pfc " + std::to_string(pfc->enabled);
        for (const auto& a : apps)
            what += "app+ " + std::to_string(a.protocol) + "->" + std::to_string(a.priority);
        return change(netdev, dcb::kCmdIeeeSet, what);
    }
    pv1::Status del(std::string_view netdev, std::span<const dcb::App> apps) override
    {
        std::string what;
        for (const auto& a : apps)
            what += "app- " + std::to_string(a.protocol) + "->" + std::to_string(a.priority);
        return change(netdev, dcb::kCmdIeeeDel, what);
    }
    pv1::Status setEts(std::string_view netdev, const dcb::Ets& ets) override
    {
        ets_set = ets;
        return change(netdev, dcb::kCmdIeeeSet, "ets");
    }
    std::optional<dcb::Ets> ets_set;

private:
    template <class F> auto decode(F&& f) -> decltype(f())
    {
        try {
            return f();
        } catch (const sdk::DecodeError& e) {
            ADD_FAILURE() << e.what();
            return {};
        }
    }
    pv1::Status change(std::string_view netdev, uint8_t cmd, const std::string& what)
    {
        requests.push_back(what);
        int err = requests.size() <= refusal.size() ? refusal[requests.size() - 1] : 0;
        auto reply = decode(
            [&] { return dcb::decodeSetReply(test::ieeeSetReply(seq_, cmd, err), seq_, cmd); });
        ++seq_;
        if (reply.error != 0)
            return sdk::dcbFailure(netdev, cmd == dcb::kCmdIeeeDel ? "IEEE_DEL" : "IEEE_SET",
                                   reply.error, reply.in_band);
        return pv1::Status::ok();
    }
    uint32_t seq_ = 1;
};

// A port as bnxt_dcb.c reports it before anything is set on a host-owned PF.
dcb::DcbState freshPort(uint8_t dcbx)
{
    dcb::DcbState st;
    st.ifname = "ens1f0np0";
    st.dcbx = dcbx;
    st.ets = dcb::Ets{};
    st.ets->cap = 7;
    st.pfc = dcb::Pfc{};
    st.pfc->cap = 3;
    return st;
}

class BnxtDcbPort : public ::testing::Test {
protected:
    sdk::DcbReports run(bool apply, const pv1::QosDesired& want)
    {
        desired_ = want;
        sdk::QosCall call{host_, dev_, dev_.ports[0], desired_, apply};
        auto r = bnxt::dcbPortSettings(call, kernel_, "ens1f0np0", notices_);
        status_ = call.first_error;
        return r;
    }

    test::SimHost host_{"/nonexistent"};
    pv1::DeviceRef dev_{
        "bnxt_re0", "0000:41:00.0", "bnxt_en", "", {{1, "Ethernet", {"ens1f0np0"}}}};
    pv1::QosDesired desired_;
    BnxtKernel kernel_;
    bnxt::OwnerNotices notices_;
    pv1::Status status_;
    const pv1::QosDesired want_{.trust_dscp = true, .pfc_priorities = {3}, .roce_tos = 106};
};

} // namespace

TEST_F(BnxtDcbPort, FirmwareOwnedPortIsReadReportedAndNeverWritten)
{
    // What the firmware's agent negotiated: PFC on 4, DSCP 26 on priority 4.
    kernel_.state = freshPort(0x0a);
    kernel_.state.pfc->enabled = 0x10;
    kernel_.state.apps = {{5, 4, 26}};
    for (int round = 0; round < 3; ++round) {
        auto r = run(true, want_);
        EXPECT_EQ(r.trust.observed, "dscp 26->4");
        EXPECT_EQ(r.pfc.observed, "4");
        for (const auto* s : {&r.trust, &r.pfc}) {
            EXPECT_FALSE(s->compliant);
            EXPECT_FALSE(s->changed);
            EXPECT_NE(s->error.find("the NIC firmware's DCBX agent owns the port's DCB (DCBX "
                                    "0x0a (LLD_MANAGED|IEEE))"),
                      std::string::npos)
                << s->error;
        }
        EXPECT_TRUE(status_) << "not a failing call: nothing was tried";
    }
    EXPECT_TRUE(kernel_.requests.empty()) << kernel_.requests.front();
    ASSERT_EQ(host_.lines.size(), 1U) << "one line per owner change, not per call";
    EXPECT_NE(host_.lines[0].find("firmware's DCBX agent"), std::string::npos);

    // The operator hands DCB to the host: logged once, and nicd writes again.
    kernel_.state.dcbx = 0x09;
    kernel_.state.ets->prio_tc[4] = 1;
    kernel_.state.ets->tsa = {2, 2};
    auto r = run(true, want_);
    ASSERT_EQ(host_.lines.size(), 4U); // the owner, then two changes
    EXPECT_NE(host_.lines[1].find("the host owns DCB again"), std::string::npos) << host_.lines[1];
    EXPECT_EQ(kernel_.requests, (std::vector<std::string>{"app- 26->4", "app+ 26->3", "pfc 8"}));
}

TEST_F(BnxtDcbPort, CompliantFirmwareOwnedPortIsNoError)
{
    kernel_.state = freshPort(0x0a);
    kernel_.state.pfc->enabled = 0x08;
    kernel_.state.apps = {{5, 3, 26}};
    auto r = run(false, want_);
    EXPECT_TRUE(r.trust.compliant);
    EXPECT_TRUE(r.pfc.compliant);
    EXPECT_EQ(r.trust.error, "");
    EXPECT_EQ(r.pfc.error, "");
    EXPECT_EQ(host_.lines.size(), 1U) << "the owner is still logged once";
    // Who runs DCBX, for the daemon (QosReport::lldp_agent): the firmware, so its own LLDP agent.
    EXPECT_EQ(r.dcbx, std::optional<uint8_t>(0x0a));
    EXPECT_EQ(sdk::firmwareLldpAgent("ens1f0np0", r.dcbx),
              "the NIC firmware runs DCBX on ens1f0np0 (DCBX mode 0x0a, no HOST bit): its own "
              "LLDP agent may take the switch's frames before the host's lldpd");
    EXPECT_EQ(sdk::firmwareLldpAgent("ens1f0np0", 0x09), std::nullopt) << "HOST|IEEE: the host's";
    EXPECT_EQ(sdk::firmwareLldpAgent("ens1f0np0", 0x0d), std::nullopt) << "mlx5 in host mode";
    EXPECT_TRUE(sdk::firmwareLldpAgent("ens1f0np0", 0x0c)) << "mlx5 in firmware mode";
    EXPECT_EQ(sdk::firmwareLldpAgent("ens1f0np0", std::nullopt), std::nullopt);
}

TEST_F(BnxtDcbPort, FreshHostPortGetsDscpEntryThenEtsThenPfc)
{
    kernel_.state = freshPort(0x09);
    auto r = run(true, want_);
    EXPECT_EQ(kernel_.requests, (std::vector<std::string>{"app+ 26->3", "ets", "pfc 8"}));
    ASSERT_TRUE(kernel_.ets_set);
    EXPECT_EQ(kernel_.ets_set->prio_tc, (std::array<uint8_t, 8>{0, 0, 0, 1, 0, 0, 0, 0}));
    EXPECT_EQ(kernel_.ets_set->tx_bw, (std::array<uint8_t, 8>{50, 50, 0, 0, 0, 0, 0, 0}));
    EXPECT_TRUE(r.trust.changed);
    EXPECT_TRUE(r.pfc.changed);
    EXPECT_TRUE(status_) << status_.message;
    bool ets_logged = false;
    for (const auto& line : host_.lines)
        ets_logged = ets_logged ||
                     line.find("PFC priorities none -> 3 (ETS set first: prio_tc "
                               "0,0,0,1,0,0,0,0, tc0 ets 50%, tc1 ets 50%)") != std::string::npos;
    EXPECT_TRUE(ets_logged);
}

TEST_F(BnxtDcbPort, PortWithItsOwnEtsKeepsIt)
{
    kernel_.state = freshPort(0x09);
    kernel_.state.ets->prio_tc = {0, 0, 0, 2, 0, 0, 0, 0};
    kernel_.state.ets->tsa = {2, 2, 0};
    kernel_.state.ets->tx_bw = {60, 40, 0};
    kernel_.state.apps = {{5, 3, 26}};
    run(true, want_);
    EXPECT_EQ(kernel_.requests, (std::vector<std::string>{"pfc 8"}));
}

TEST_F(BnxtDcbPort, DscpRefusedWithByte0xF4IsUnsupportedNotOutOfMemory)
{
    kernel_.state = freshPort(0x09);
    kernel_.state.pfc->enabled = 0x08;
    kernel_.state.ets->prio_tc[3] = 1;
    kernel_.refusal = {-524}; // bnxt_dcbnl_ieee_dscp_app_prep: -ENOTSUPP, firmware without DSCP
    auto r = run(true, want_);
    EXPECT_EQ(status_.code, pv1::Errc::NotSupported) << status_.message;
    EXPECT_NE(r.trust.error.find("ENOTSUPP (524)"), std::string::npos) << r.trust.error;
    EXPECT_FALSE(r.trust.compliant);
}

TEST_F(BnxtDcbPort, VerifyWritesNothing)
{
    kernel_.state = freshPort(0x09);
    auto r = run(false, want_);
    EXPECT_TRUE(kernel_.requests.empty());
    EXPECT_EQ(r.trust.desired, "dscp 26->3");
    EXPECT_EQ(r.trust.observed, "pcp");
    EXPECT_EQ(r.pfc.observed, "none");
    EXPECT_TRUE(host_.lines.empty());
}
