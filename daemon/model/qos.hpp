// RoCE QoS as nicd last found it, per port: what provisioning wanted, what the NIC reported, and
// why a port is not provisioned at all. Filled on the loop from the provisioner's rounds.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

namespace nicd {

struct QosSettingState {
    std::string setting; // "trust", "pfc", "ecn_np", "ecn_rp", "roce_tos", ...
    std::string desired;
    std::string observed;
    bool compliant = false;
    std::string error; // the last error for this setting; empty when none
    // Written by this round because the NIC had another value: `was`, what the round before
    // found ("" when none did).
    bool repaired = false;
    std::string was;
    // The plugin read "unsupported": the NIC gives nicd no interface for this setting (bnxt's
    // ECN). A result of its own wherever nicd shows one: never counted compliant, nor
    // noncompliant (the plugin reports it compliant: there is nothing to repair).
    bool unsupported() const { return observed == kUnsupported; }
    static constexpr std::string_view kUnsupported = "unsupported";
};

struct PortQosState {
    bool managed = false; // false: skipped, `status` says why
    std::string status;   // compliant | noncompliant | error: <why> | skipped: <why> | pending
    std::vector<QosSettingState> settings;
    double verified_seconds = 0; // CLOCK_REALTIME of the last read-back; 0 = never
    // Who runs DCBX, and so LLDP, on the port when not the host (its plugin's words, ABI 1.8:
    // the NIC firmware's agent); empty: the host, or unknown.
    std::string lldp_agent{};
};

struct QosSummary {
    std::string mode;              // [provision] Mode=: enforce | verify | off
    bool dry_run = false;          // [provision] DryRun=yes or --dry-run
    std::string waiting;           // non-empty while provisioning waits (driver not ready)
    double last_apply_seconds = 0; // CLOCK_REALTIME of the last round that wrote (or would)
    std::string last_apply_result; // "ok", "dry-run", "failed: ..."; empty = never
    std::map<std::pair<std::string, uint32_t>, PortQosState> ports; // by (ibdev, port)
    // Since start, by (ibdev, port, setting): settings written, and errors met applying them.
    std::map<std::tuple<std::string, uint32_t, std::string>, uint64_t> changes_total;
    std::map<std::tuple<std::string, uint32_t, std::string>, uint64_t> errors_total;
    std::map<std::string, uint64_t> rounds_total; // rounds finished since start, by kind
};

} // namespace nicd
