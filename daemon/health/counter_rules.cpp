#include "health/counter_rules.hpp"

#include <fmt/format.h>

namespace nicd::health {

const std::vector<CounterRule>& defaultCounterRules()
{
    using S = ConditionSeverity;
    using A = Action;
    constexpr auto D = RuleKind::Delta;
    constexpr auto R = RuleKind::Rate;
    using M = Meaning;
    static const std::vector<CounterRule> rules{
        {"link_downed", M::None, D, 0, kDeltaHoldSec, S::Fatal, "the link went down",
         "check the cable, transceiver and switch port", A::CheckCable},
        {"excessive_buffer_overrun_errors", M::None, D, 0, kDeltaHoldSec, S::Fatal,
         "receive buffer overruns (flow control is not holding)",
         "check PFC and buffer settings on NIC and switch", A::CheckQosConfig},
        {"local_link_integrity_errors", M::None, D, 0, kDeltaHoldSec, S::Fatal,
         "the link's physical errors passed the integrity limit",
         "replace the cable or transceiver", A::ReplaceCableOrTransceiver},
        // IBTA: BER 1e-12 at 100+ Gb/s is about 120 symbol errors per hour.
        {"symbol_error", M::None, R, 120, 3600, S::Degraded,
         "symbol errors exceed the IBTA BER of 1e-12", "reseat or replace the cable or transceiver",
         A::ReplaceCableOrTransceiver},
        {"link_error_recovery", M::None, R, 5, 60, S::Degraded, "the link keeps retraining",
         "check the cable and switch port", A::CheckCable},
        {"port_rcv_errors", M::None, R, 10, 1, S::Degraded, "packets are received with errors",
         "check the cable, transceiver and switch port", A::CheckCable},
        // The plugins' counters, by what they mean (plugin.h Meaning; docs/conditions.md names
        // each plugin's counter for each meaning). The condition is counter.<the counter's name>.
        {"", M::RnrRetryExceeded, D, 0, kDeltaHoldSec, S::Fatal, "RNR NAK retries were exhausted",
         "a receiver stopped posting buffers: check the workload and the peer's health",
         A::CheckWorkload},
        // A connection failed: its requests went unanswered through every retry (bnxt_re's
        // max_retry_exceeded). Loss on the fabric, or a peer that died (a remote rank's crash
        // raises it too, hence not fatal).
        {"", M::RetryExceeded, D, 0, kDeltaHoldSec, S::Degraded,
         "transport retries were exhausted: a connection (QP) failed",
         "packet loss on the fabric or a peer that died: check the lossless (PFC) configuration "
         "and the peer",
         A::CheckQosConfig},
        {"", M::SlowRestart, R, 10, 1, S::Degraded,
         "RoCE retransmissions fall back to slow restart",
         "packet loss or congestion on the fabric: check PFC/ECN on the path",
         A::CheckCongestionConfig},
        {"", M::LocalAckTimeout, R, 1, 1, S::Degraded, "requests time out waiting for ACKs",
         "packet loss on the fabric: check the lossless (PFC) configuration and the peer",
         A::CheckQosConfig},
        // Packets dropped because no receive WQE was posted (mlx5 out_of_buffer). RC traffic
        // (NCCL) answers a missing WQE with an RNR NAK instead, so drops here come from UD/SRQ
        // consumers; a few are harmless, a sustained 100/s means a consumer that cannot keep up.
        {"", M::OutOfBuffer, R, 100, 1, S::Degraded,
         "packets are dropped for lack of receive buffers",
         "the host is not keeping up: check CPU load and NUMA affinity of the workload",
         A::CheckWorkload},
        // PFC pause storms (ethtool, per priority). One pause frame stops a 400G port for up to
        // 65535 x 512 bit times = 84 us, so ~12,000 frames/s pause it all the time; 5,000/s
        // sustained over a minute means the lossless class spends a large share of time stopped.
        {"", M::RxPauseFrames, R, 300000, 60, S::Degraded,
         "the switch keeps pausing this port (PFC pause storm from the fabric)",
         "find the congested or stuck receiver downstream; check the switch's PFC watchdog",
         A::CheckCongestionConfig},
        {"", M::TxPauseFrames, R, 300000, 60, S::Degraded,
         "this port keeps pausing the switch (PFC pause storm)",
         "the host cannot drain its receive queues: check the workload, CPU and PCIe; a stuck NIC "
         "can pause the whole fabric",
         A::CheckCongestionConfig},
        // The same storms measured as time (microseconds; mlx5e *_pause_duration, counters.md
        // §2.3), independent of link speed and pause quanta: paused more than half of a minute.
        {"", M::RxPauseDuration, R, 30e6, 60, S::Degraded,
         "the switch kept this port paused more than half of the time (PFC pause storm)",
         "find the congested or stuck receiver downstream; check the switch's PFC watchdog",
         A::CheckCongestionConfig},
        {"", M::TxPauseDuration, R, 30e6, 60, S::Degraded,
         "this port kept the switch paused more than half of the time (PFC pause storm)",
         "the host cannot drain its receive queues: check the workload, CPU and PCIe",
         A::CheckCongestionConfig},
        // The NIC's own stall detector hit its critical watermark and stopped sending pauses:
        // the lossless class now drops (counters.md §2.3).
        {"", M::PauseStormError, D, 0, kDeltaHoldSec, S::Degraded,
         "the NIC stopped sending PFC pauses after a pause storm (lossless traffic may drop)",
         "the host cannot drain its receive queues: check the workload, CPU and PCIe",
         A::CheckCongestionConfig},
    };
    return rules;
}

namespace {
void overlay(CounterRule& rule, const CounterRuleConfig& c)
{
    if (c.delta) {
        rule.kind = RuleKind::Delta;
        rule.threshold = static_cast<double>(*c.delta);
        rule.window_sec = kDeltaHoldSec;
    }
    if (c.rate) {
        rule.kind = RuleKind::Rate;
        rule.threshold = c.rate->count;
        rule.window_sec = c.rate->window_sec;
    }
    if (c.action)
        rule.action = *c.action;
    if (c.severity)
        rule.severity = *c.severity == RuleSeverity::Fatal ? ConditionSeverity::Fatal
                                                           : ConditionSeverity::Degraded;
}
} // namespace

std::optional<CounterRule> ruleFor(const std::string& counter, Meaning meaning,
                                   const std::string& device, const Config& config)
{
    std::optional<CounterRule> rule;
    for (const auto& r : defaultCounterRules())
        if (r.means != Meaning::None ? r.means == meaning : r.counter == counter) {
            rule = r;
            rule->counter = counter;
            break;
        }
    bool enabled = true;
    for (const std::string& key : {counter, counter + "/" + device}) {
        auto it = config.counter_rules.find(key);
        if (it == config.counter_rules.end())
            continue;
        if (!rule)
            rule = CounterRule{counter,
                               meaning,
                               RuleKind::Delta,
                               0,
                               kDeltaHoldSec,
                               ConditionSeverity::Degraded,
                               counter + " grows",
                               "see the counter's documentation",
                               Action::None};
        overlay(*rule, it->second);
        if (it->second.enable)
            enabled = *it->second.enable;
    }
    if (!enabled)
        return std::nullopt;
    return rule;
}

void CounterRuleCache::reset(const Config& config)
{
    rules_.clear();
    per_device_.clear();
    for (const auto& [key, rule] : config.counter_rules)
        if (auto slash = key.find('/'); slash != std::string::npos)
            per_device_.insert(key.substr(0, slash));
}

const CounterRule* CounterRuleCache::find(const std::string& counter, Meaning meaning,
                                          const std::string& device, const Config& config)
{
    if (per_device_.contains(std::string_view(counter))) {
        uncached_ = ruleFor(counter, meaning, device, config);
        return uncached_ ? &*uncached_ : nullptr;
    }
    auto& rules = rules_[meaning];
    auto it = rules.find(std::string_view(counter));
    if (it == rules.end())
        it = rules.emplace(counter, ruleFor(counter, meaning, device, config)).first;
    return it->second ? &*it->second : nullptr;
}

std::string describeThreshold(const CounterRule& rule)
{
    auto number = [](double n) {
        return n >= 1e6 ? fmt::format("{:.0f}", n) : fmt::format("{:g}", n);
    };
    if (rule.kind == RuleKind::Delta)
        return rule.threshold == 0
                   ? std::string("any increase")
                   : fmt::format("more than {} between two reads", number(rule.threshold));
    const char* unit = rule.window_sec >= 3600 ? "hour"
                       : rule.window_sec >= 60 ? "minute"
                                               : "second";
    return fmt::format("more than {} per {}", number(rule.threshold), unit);
}

} // namespace nicd::health
