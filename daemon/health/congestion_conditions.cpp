#include "health/congestion_conditions.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace nicd::health {

namespace {

bool isEcn(const QosSettingState& s)
{
    return s.setting == "ecn_np" || s.setting == "ecn_rp";
}

std::string pfcOnlyAdvice(EcnAtNic ecn)
{
    constexpr const char* kWhy = "PFC alone stops the senders, so pauses spread through the fabric";
    constexpr const char* kSwitch = "ECN marking on the switch queue of the lossless priority, "
                                    "with its marking threshold below the PFC XOFF threshold";
    switch (ecn) {
    case EcnAtNic::Disabled:
        return fmt::format("{}: enable ECN on the NIC (Ecn=yes) and {}", kWhy, kSwitch);
    case EcnAtNic::Off:
        return fmt::format("{}: enable ECN on the NIC (Mode=enforce or nicctl apply; nicctl "
                           "verify shows it off) and {}",
                           kWhy, kSwitch);
    case EcnAtNic::Failed:
        return fmt::format("{}: nicd could not enable ECN on this NIC (nicctl verify says why); "
                           "enable {}",
                           kWhy, kSwitch);
    case EcnAtNic::On:
        return fmt::format("{}: ECN is on at the NIC, so the switch does not mark: enable {}", kWhy,
                           kSwitch);
    case EcnAtNic::NotSettable:
        return fmt::format("{}: nicd cannot set ECN on this NIC (its plugin reads it "
                           "unsupported: set it with the vendor's tools); enable {}",
                           kWhy, kSwitch);
    case EcnAtNic::Unknown:
        break;
    }
    return fmt::format("{}: enable ECN on the NIC and {}", kWhy, kSwitch);
}

} // namespace

EcnAtNic ecnAtNic(const PortQosState* qos)
{
    if (!qos || !qos->managed || qos->settings.empty())
        return EcnAtNic::Unknown;
    const auto& s = qos->settings;
    if (std::none_of(s.begin(), s.end(), isEcn))
        return EcnAtNic::Disabled;
    if (std::any_of(s.begin(), s.end(),
                    [](const QosSettingState& x) { return isEcn(x) && x.unsupported(); }))
        return EcnAtNic::NotSettable;
    bool off = false, failed = false;
    for (const auto& x : s)
        if (isEcn(x) && !x.compliant) {
            off = true;
            failed = failed || !x.error.empty();
        }
    return failed ? EcnAtNic::Failed : off ? EcnAtNic::Off : EcnAtNic::On;
}

std::optional<Condition> congestionCondition(const CongestionVerdict& v, const std::string& ibdev,
                                             uint32_t port, EcnAtNic ecn)
{
    Condition c;
    c.device = ibdev;
    c.port = port;
    c.source = ConditionSource::Counter;
    c.message = v.why;
    switch (v.state) {
    case CongestionState::PfcOnly:
        c.code = "congestion.pfc_only";
        c.severity = ConditionSeverity::Degraded;
        c.advice = pfcOnlyAdvice(ecn);
        c.action = Action::CheckCongestionConfig;
        return c;
    case CongestionState::PauseStorm:
        c.code = "congestion.pause_storm";
        c.severity = v.fatal ? ConditionSeverity::Fatal : ConditionSeverity::Degraded;
        c.advice = "the port is held off most of the time: look for the stuck receiver or the "
                   "switch port sending the pauses (and its PFC watchdog)";
        c.action = Action::CheckSwitchPort;
        return c;
    case CongestionState::Lossy:
        c.code = "congestion.lossy";
        c.severity = ConditionSeverity::Degraded;
        c.advice = "the lossless priority loses packets: check PFC, trust and buffers on the NIC "
                   "and the switch (nicctl verify), and that RoCE traffic uses that priority";
        c.action = Action::CheckQosConfig;
        return c;
    default:
        return std::nullopt;
    }
}

} // namespace nicd::health
