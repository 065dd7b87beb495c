#include "health/counter_rules.hpp"

#include <fmt/format.h>
#include <fnmatch.h>

namespace nicd::health {

const std::vector<CounterRule>& defaultCounterRules()
{
    using S = ConditionSeverity;
    static const std::vector<CounterRule> rules{
        {"link_downed", 0, kAnyIncreaseWindowSec, S::Fatal, "the link went down",
         "check the cable, transceiver and switch port"},
        {"excessive_buffer_overrun_errors", 0, kAnyIncreaseWindowSec, S::Fatal,
         "receive buffer overruns (flow control is not holding)",
         "check PFC and buffer settings on NIC and switch"},
        {"local_link_integrity_errors", 0, kAnyIncreaseWindowSec, S::Fatal,
         "the link's physical errors passed the integrity limit",
         "replace the cable or transceiver"},
        {"rnr_nak_retry_err", 0, kAnyIncreaseWindowSec, S::Fatal, "RNR NAK retries were exhausted",
         "a receiver stopped posting buffers: check the workload and the peer's health"},
        // IBTA: BER 1e-12 at 100+ Gb/s is about 120 symbol errors per hour.
        {"symbol_error", 120, 3600, S::Degraded, "symbol errors exceed the IBTA BER of 1e-12",
         "reseat or replace the cable or transceiver"},
        {"link_error_recovery", 5, 60, S::Degraded, "the link keeps retraining",
         "check the cable and switch port"},
        {"port_rcv_errors", 10, 1, S::Degraded, "packets are received with errors",
         "check the cable, transceiver and switch port"},
        {"roce_slow_restart", 10, 1, S::Degraded, "RoCE retransmissions fall back to slow restart",
         "packet loss or congestion on the fabric: check PFC/ECN on the path"},
        {"local_ack_timeout_err", 1, 1, S::Degraded, "requests time out waiting for ACKs",
         "packet loss on the fabric: check the lossless (PFC) configuration and the peer"},
        // mlx5 out_of_buffer: packets dropped because no receive WQE was posted. RC traffic
        // (NCCL) answers a missing WQE with an RNR NAK instead, so drops here come from UD/SRQ
        // consumers; a few are harmless, a sustained 100/s means a consumer that cannot keep up.
        {"out_of_buffer", 100, 1, S::Degraded, "packets are dropped for lack of receive buffers",
         "the host is not keeping up: check CPU load and NUMA affinity of the workload"},
        // PFC pause storms (ethtool, per priority). One pause frame stops a 400G port for up to
        // 65535 x 512 bit times = 84 us, so ~12,000 frames/s pause it all the time; 5,000/s
        // sustained over a minute means the lossless class spends a large share of time stopped.
        {"rx_prio*_pause", 300000, 60, S::Degraded,
         "the switch keeps pausing this port (PFC pause storm from the fabric)",
         "find the congested or stuck receiver downstream; check the switch's PFC watchdog"},
        {"tx_prio*_pause", 300000, 60, S::Degraded,
         "this port keeps pausing the switch (PFC pause storm)",
         "the host cannot drain its receive queues: check the workload, CPU and PCIe; a stuck NIC "
         "can pause the whole fabric"},
        // The same storms measured as time (mlx5e *_pause_duration, microseconds; counters.md
        // §2.3), independent of link speed and pause quanta: paused more than half of a minute.
        {"rx_prio*_pause_duration", 30e6, 60, S::Degraded,
         "the switch kept this port paused more than half of the time (PFC pause storm)",
         "find the congested or stuck receiver downstream; check the switch's PFC watchdog"},
        {"tx_prio*_pause_duration", 30e6, 60, S::Degraded,
         "this port kept the switch paused more than half of the time (PFC pause storm)",
         "the host cannot drain its receive queues: check the workload, CPU and PCIe"},
        // The NIC's own stall detector hit its critical watermark and stopped sending pauses:
        // the lossless class now drops (counters.md §2.3).
        {"tx_pause_storm_error_events", 0, kAnyIncreaseWindowSec, S::Degraded,
         "the NIC stopped sending PFC pauses after a pause storm (lossless traffic may drop)",
         "the host cannot drain its receive queues: check the workload, CPU and PCIe"},
    };
    return rules;
}

namespace {
void overlay(CounterRule& rule, const CounterRuleConfig& c)
{
    if (c.delta) {
        rule.threshold = static_cast<double>(*c.delta);
        rule.window_sec = kAnyIncreaseWindowSec;
    }
    if (c.rate_per_second) {
        double r = *c.rate_per_second;
        rule.window_sec = r < 1.0 / 60 ? 3600 : r < 1 ? 60 : 1;
        rule.threshold = r * rule.window_sec;
    }
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
                               0,
                               kAnyIncreaseWindowSec,
                               ConditionSeverity::Degraded,
                               counter + " grows",
                               "see the counter's documentation"};
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
    if (rule.threshold == 0)
        return "any increase";
    const char* unit = rule.window_sec >= 3600 ? "hour"
                       : rule.window_sec >= 60 ? "minute"
                                               : "second";
    double per = rule.window_sec >= 3600 ? rule.threshold * 3600 / rule.window_sec
                 : rule.window_sec >= 60 ? rule.threshold * 60 / rule.window_sec
                                         : rule.threshold / rule.window_sec;
    return fmt::format("more than {} per {}",
                       per >= 1e6 ? fmt::format("{:.0f}", per) : fmt::format("{:g}", per), unit);
}

} // namespace nicd::health
