#include "health/counter_rules.hpp"

#include <fmt/format.h>
#include <fnmatch.h>

namespace nicd::health {

const std::vector<CounterRule>& defaultCounterRules()
{
    using S = ConditionSeverity;
    using A = Action;
    constexpr auto D = RuleKind::Delta;
    constexpr auto R = RuleKind::Rate;
    static const std::vector<CounterRule> rules{
        {"link_downed", D, 0, kDeltaHoldSec, S::Fatal, "the link went down",
         "check the cable, transceiver and switch port", A::CheckCable},
        {"excessive_buffer_overrun_errors", D, 0, kDeltaHoldSec, S::Fatal,
         "receive buffer overruns (flow control is not holding)",
         "check PFC and buffer settings on NIC and switch", A::CheckQosConfig},
        {"local_link_integrity_errors", D, 0, kDeltaHoldSec, S::Fatal,
         "the link's physical errors passed the integrity limit",
         "replace the cable or transceiver", A::ReplaceCableOrTransceiver},
        {"rnr_nak_retry_err", D, 0, kDeltaHoldSec, S::Fatal, "RNR NAK retries were exhausted",
         "a receiver stopped posting buffers: check the workload and the peer's health",
         A::CheckWorkload},
        // IBTA: BER 1e-12 at 100+ Gb/s is about 120 symbol errors per hour.
        {"symbol_error", R, 120, 3600, S::Degraded, "symbol errors exceed the IBTA BER of 1e-12",
         "reseat or replace the cable or transceiver", A::ReplaceCableOrTransceiver},
        {"link_error_recovery", R, 5, 60, S::Degraded, "the link keeps retraining",
         "check the cable and switch port", A::CheckCable},
        {"port_rcv_errors", R, 10, 1, S::Degraded, "packets are received with errors",
         "check the cable, transceiver and switch port", A::CheckCable},
        {"roce_slow_restart", R, 10, 1, S::Degraded,
         "RoCE retransmissions fall back to slow restart",
         "packet loss or congestion on the fabric: check PFC/ECN on the path",
         A::CheckCongestionConfig},
        {"local_ack_timeout_err", R, 1, 1, S::Degraded, "requests time out waiting for ACKs",
         "packet loss on the fabric: check the lossless (PFC) configuration and the peer",
         A::CheckQosConfig},
        // mlx5 out_of_buffer: packets dropped because no receive WQE was posted. RC traffic
        // (NCCL) answers a missing WQE with an RNR NAK instead, so drops here come from UD/SRQ
        // consumers; a few are harmless, a sustained 100/s means a consumer that cannot keep up.
        {"out_of_buffer", R, 100, 1, S::Degraded, "packets are dropped for lack of receive buffers",
         "the host is not keeping up: check CPU load and NUMA affinity of the workload",
         A::CheckWorkload},
        // PFC pause storms (ethtool, per priority). One pause frame stops a 400G port for up to
        // 65535 x 512 bit times = 84 us, so ~12,000 frames/s pause it all the time; 5,000/s
        // sustained over a minute means the lossless class spends a large share of time stopped.
        {"rx_prio*_pause", R, 300000, 60, S::Degraded,
         "the switch keeps pausing this port (PFC pause storm from the fabric)",
         "find the congested or stuck receiver downstream; check the switch's PFC watchdog",
         A::CheckCongestionConfig},
        {"tx_prio*_pause", R, 300000, 60, S::Degraded,
         "this port keeps pausing the switch (PFC pause storm)",
         "the host cannot drain its receive queues: check the workload, CPU and PCIe; a stuck NIC "
         "can pause the whole fabric",
         A::CheckCongestionConfig},
        // The same storms measured as time (mlx5e *_pause_duration, microseconds; counters.md
        // §2.3), independent of link speed and pause quanta: paused more than half of a minute.
        {"rx_prio*_pause_duration", R, 30e6, 60, S::Degraded,
         "the switch kept this port paused more than half of the time (PFC pause storm)",
         "find the congested or stuck receiver downstream; check the switch's PFC watchdog",
         A::CheckCongestionConfig},
        {"tx_prio*_pause_duration", R, 30e6, 60, S::Degraded,
         "this port kept the switch paused more than half of the time (PFC pause storm)",
         "the host cannot drain its receive queues: check the workload, CPU and PCIe",
         A::CheckCongestionConfig},
        // The NIC's own stall detector hit its critical watermark and stopped sending pauses:
        // the lossless class now drops (counters.md §2.3).
        {"tx_pause_storm_error_events", D, 0, kDeltaHoldSec, S::Degraded,
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

std::optional<CounterRule> ruleFor(const std::string& counter, const std::string& device,
                                   const Config& config)
{
    std::optional<CounterRule> rule;
    for (const auto& r : defaultCounterRules())
        if (r.counter == counter || (r.counter.find('*') != std::string::npos &&
                                     fnmatch(r.counter.c_str(), counter.c_str(), 0) == 0)) {
            rule = r;
            rule->counter = counter;
        }
    bool enabled = true;
    for (const std::string& key : {counter, counter + "/" + device}) {
        auto it = config.counter_rules.find(key);
        if (it == config.counter_rules.end())
            continue;
        if (!rule)
            rule = CounterRule{counter,
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

const CounterRule* CounterRuleCache::find(const std::string& counter, const std::string& device,
                                          const Config& config)
{
    if (per_device_.contains(std::string_view(counter))) {
        uncached_ = ruleFor(counter, device, config);
        return uncached_ ? &*uncached_ : nullptr;
    }
    auto it = rules_.find(std::string_view(counter));
    if (it == rules_.end())
        it = rules_.emplace(counter, ruleFor(counter, device, config)).first;
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
