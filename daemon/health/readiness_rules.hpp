// Readiness of the compute ports (health/readiness_checks.hpp): each failed check is a ready.*
// condition on its port, with the check's finding as the message:
//   ready.no_roce_gid   (fatal, check_network_config)   NCCL cannot address the port
//   ready.no_uverbs     (fatal, check_host_config)      NCCL cannot open the device
//   ready.no_umad       (degraded, check_host_config)   InfiniBand: no management datagrams
//                                                       (fabric tools, SM); NCCL runs on
//   ready.mtu_mismatch  (degraded, check_network_config) traffic runs, at a smaller MTU
//   ready.no_gpudirect  (degraded, check_host_config)   traffic is staged through host memory
//   ready.acs_redirect  (degraded, check_host_config)   P2P goes through the root complex
//   ready.numa_far      (degraded, check_host_config)   traffic crosses the CPU interconnect
// A port judged without a failure recovers its ready.* conditions; one not judged this time (down,
// no longer compute, a source not read) keeps them. An "unknown" check raises nothing and
// recovers nothing. The checks of the last judgement go into the report (nicctl show, the bus).
#pragma once

#include "health/readiness_checks.hpp"
#include "health/rule_family.hpp"

namespace nicd::health {

class ReadinessRules : public RuleFamily {
public:
    const char* name() const override { return "readiness"; }
    void evaluate(const Snapshot& snap, double now_mono, double now_real, ConditionSet& conditions,
                  std::vector<Event>& out) override;
    void annotate(HealthReport& report) const override { report.readiness = last_; }

    // Nothing to keep across restarts: the checks are judged afresh from what is read.
    void appendJson(std::string& out) const override { out += "{}"; }
    void restore(const nlohmann::json& /*j*/) override {}
    void forget() override { last_.clear(); }
    void rename(const std::string& from, const std::string& to) override;

private:
    PortChecks last_;
};

} // namespace nicd::health
