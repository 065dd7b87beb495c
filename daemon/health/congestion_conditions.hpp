// The condition of a port's congestion verdict (congestion_verdict.hpp), and its advice. The
// advice of congestion.pfc_only names only what nicd can do about ECN on that NIC, as the port's
// last QoS round found it: the plugin that owns the NIC reports its ecn_np/ecn_rp settings, and
// "unsupported" there means the NIC gives nicd no interface for ECN (bnxt upstream): no Ecn=yes
// is offered for a NIC where it does nothing. Pure.
#pragma once

#include "health/congestion_verdict.hpp"
#include "model/health.hpp"
#include "model/qos.hpp"

#include <optional>
#include <string>

namespace nicd::health {

// ECN at the NIC, from its port's last QoS round.
enum class EcnAtNic : uint8_t {
    Unknown,     // nicd does not provision the port, or has not read it yet
    Disabled,    // provisioned without ECN ([provision] Ecn=no): nicd would set it with Ecn=yes
    Off,         // wanted, reads off, no error: Mode=verify (nicctl apply would set it)
    Failed,      // wanted, reads off, and setting it failed: the error says why
    On,          // on at the NIC on the lossless priorities
    NotSettable, // the plugin reads it "unsupported": no interface for nicd on this NIC
};

// From the port's QoS state (nullptr: none).
EcnAtNic ecnAtNic(const PortQosState* qos);

// congestion.pfc_only, congestion.pause_storm or congestion.lossy for a verdict that has one;
// nullopt for the others.
std::optional<Condition> congestionCondition(const CongestionVerdict& v, const std::string& ibdev,
                                             uint32_t port, EcnAtNic ecn);

} // namespace nicd::health
