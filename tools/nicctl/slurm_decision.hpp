// `nicctl slurm-check`'s judgement, pure: nicd's node verdict, the node's current drain reason in
// Slurm and when nicd was first seen healthy → drain, resume or leave the node alone. The I/O
// (D-Bus, scontrol, the state file) is slurm_check_command.cpp's.
#pragma once

#include "node_view.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace nicctl::slurm {

// Every drain reason slurm-check writes starts with this; it resumes only such a node.
inline constexpr const char* kReasonPrefix = "nicd:";

struct Settings {
    bool drain_on_degraded = false;      // DrainOn=degraded (default fatal)
    bool drain_when_unreachable = false; // Unreachable=drain (default ignore)
    // ResumeAfterSec=: how long nicd must have been healthy before a node it drained is resumed;
    // nullopt (ResumeAfterSec=never): never, a person resumes it.
    std::optional<uint64_t> resume_after_sec = 300;
};

enum class Verdict { Healthy, Degraded, Fatal, Unknown, Unreachable };

struct Observation {
    Verdict verdict = Verdict::Unknown;
    // What is wrong, for the reason and the log: "mlx5_3/1 port_down check_cable"; for
    // Unreachable why nicd could not be asked.
    std::string problem;
};

// The node verdict of `node` (compute NICs decide fatal) and its problem: a fatal condition of a
// compute device (one without a role counts as compute), else of the node itself; for a degraded
// node a degraded condition (else a fatal one of a storage NIC). Of several, a plain code
// (port_down) before a family's (netdev_down.<netdev>, counter.*), then the oldest: the reason
// stays the same while the same things are wrong. Names from the bus are reduced to
// [A-Za-z0-9_.:/-].
Observation observe(const NodeView& node);

struct Decision {
    enum class Kind { Nothing, Drain, Resume };
    Kind kind = Kind::Nothing;
    std::string reason;                    // for Drain: "nicd: mlx5_3/1 port_down check_cable"
    std::optional<uint64_t> healthy_since; // to remember (unix seconds); nullopt: not healthy
    bool node_bad = false; // the verdict keeps jobs off the node (the prolog refuses them)
    std::string message;   // one line for slurmd's log
};

// `current_reason`: the node's drain reason in Slurm without its "[user@time]" suffix ("" none).
// `healthy_since`: remembered from the last run. `now`: unix seconds.
Decision decide(const Observation& seen, const std::string& current_reason,
                std::optional<uint64_t> healthy_since, uint64_t now, const Settings& settings);

} // namespace nicctl::slurm
