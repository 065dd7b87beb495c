// congestion.pfc_only's advice names only what nicd can do about ECN on that NIC, as its plugin
// reported ECN in the port's last QoS round: no "Ecn=yes" where the plugin reads ECN unsupported
// (bnxt upstream) or where it is already on.
#include "health/congestion_conditions.hpp"

#include <gtest/gtest.h>

using namespace nicd;
using namespace nicd::health;

namespace {

QosSettingState ecn(const std::string& setting, const std::string& observed, bool compliant,
                    const std::string& error = "")
{
    QosSettingState s;
    s.setting = setting;
    s.desired = "3";
    s.observed = observed;
    s.compliant = compliant;
    s.error = error;
    return s;
}

PortQosState port(std::vector<QosSettingState> settings)
{
    PortQosState p;
    p.managed = true;
    p.status = "compliant";
    QosSettingState trust;
    trust.setting = "trust";
    trust.desired = trust.observed = "dscp";
    trust.compliant = true;
    settings.insert(settings.begin(), trust);
    p.settings = std::move(settings);
    return p;
}

std::string pfcOnlyAdvice(EcnAtNic e)
{
    CongestionVerdict v;
    v.state = CongestionState::PfcOnly;
    v.why = "paused 40% of 60 s, no ECN mark";
    auto c = congestionCondition(v, "bnxt_re0", 1, e);
    EXPECT_TRUE(c);
    EXPECT_EQ(c->code, "congestion.pfc_only");
    EXPECT_EQ(c->action, Action::CheckCongestionConfig);
    return c->advice;
}

} // namespace

TEST(CongestionConditions, EcnAtNicIsWhatThePluginReported)
{
    EXPECT_EQ(ecnAtNic(nullptr), EcnAtNic::Unknown);
    PortQosState skipped;
    skipped.status = "skipped: virtual function";
    EXPECT_EQ(ecnAtNic(&skipped), EcnAtNic::Unknown);
    auto p = port({});
    EXPECT_EQ(ecnAtNic(&p), EcnAtNic::Disabled) << "provisioned without ECN rows: Ecn=no";
    p = port({ecn("ecn_np", "unsupported", true), ecn("ecn_rp", "unsupported", true)});
    EXPECT_EQ(ecnAtNic(&p), EcnAtNic::NotSettable) << "bnxt without cc_config";
    p = port({ecn("ecn_np", "3", true), ecn("ecn_rp", "3", true)});
    EXPECT_EQ(ecnAtNic(&p), EcnAtNic::On);
    p = port({ecn("ecn_np", "none", false), ecn("ecn_rp", "3", true)});
    EXPECT_EQ(ecnAtNic(&p), EcnAtNic::Off) << "Mode=verify: read, not set";
    p = port({ecn("ecn_np", "none (congestion control off)", false,
                  "bnxt_re 0000:41:00.0: congestion control is off"),
              ecn("ecn_rp", "3", true)});
    EXPECT_EQ(ecnAtNic(&p), EcnAtNic::Failed);
}

TEST(CongestionConditions, PfcOnlyAdviceOffersEcnYesOnlyWhereItWouldDoSomething)
{
    EXPECT_NE(pfcOnlyAdvice(EcnAtNic::Disabled).find("(Ecn=yes)"), std::string::npos);
    for (auto e :
         {EcnAtNic::NotSettable, EcnAtNic::On, EcnAtNic::Off, EcnAtNic::Failed, EcnAtNic::Unknown})
        EXPECT_EQ(pfcOnlyAdvice(e).find("Ecn=yes"), std::string::npos)
            << static_cast<int>(e) << ": " << pfcOnlyAdvice(e);
    const auto bnxt = pfcOnlyAdvice(EcnAtNic::NotSettable);
    EXPECT_NE(bnxt.find("nicd cannot set ECN on this NIC"), std::string::npos) << bnxt;
    EXPECT_NE(bnxt.find("switch queue of the lossless priority"), std::string::npos) << bnxt;
    EXPECT_NE(pfcOnlyAdvice(EcnAtNic::On).find("ECN is on at the NIC"), std::string::npos);
    EXPECT_NE(pfcOnlyAdvice(EcnAtNic::Off).find("nicctl apply"), std::string::npos);
}

TEST(CongestionConditions, OtherVerdictsKeepTheirConditionsAndQuietOnesHaveNone)
{
    CongestionVerdict v;
    v.state = CongestionState::Lossy;
    auto c = congestionCondition(v, "mlx5_0", 1, EcnAtNic::On);
    ASSERT_TRUE(c);
    EXPECT_EQ(c->code, "congestion.lossy");
    EXPECT_EQ(c->action, Action::CheckQosConfig);
    v.state = CongestionState::PauseStorm;
    v.fatal = true;
    c = congestionCondition(v, "mlx5_0", 1, EcnAtNic::On);
    ASSERT_TRUE(c);
    EXPECT_EQ(c->severity, ConditionSeverity::Fatal);
    for (auto s : {CongestionState::Idle, CongestionState::EcnWorking, CongestionState::Unknown}) {
        v.state = s;
        EXPECT_FALSE(congestionCondition(v, "mlx5_0", 1, EcnAtNic::On));
    }
}
