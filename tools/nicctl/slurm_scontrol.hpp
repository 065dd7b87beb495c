// slurm-check's side of Slurm: `scontrol show node` read for the node's drain reason, and
// `scontrol update` to drain or resume it. scontrol is run directly (no shell), from PATH (slurmd
// runs a health check with a minimal environment: execvp then searches /bin:/usr/bin).
#pragma once

#include "text/result.hpp"

#include <optional>
#include <string>
#include <vector>

namespace nicctl::slurm {

// The drain reason in `scontrol show node NAME`'s output without Slurm's " [user@time]" suffix;
// "" when the node has none; nullopt when the text does not describe a node.
std::optional<std::string> drainReasonOf(const std::string& show_node_output);

// A Slurm node name as slurm-check accepts it (from SLURMD_NODENAME, the host name or --node):
// letters, digits, '.', '_' and '-', at most 64; anything else could be read by scontrol as more
// than a name.
bool validNodeName(const std::string& name);

struct CommandResult {
    int status = -1;    // the exit status; -1 when it could not run or was killed
    std::string output; // stdout and stderr
};
CommandResult runCommand(const std::vector<std::string>& argv);

// The node's drain reason (drainReasonOf); an Error saying why (scontrol's own words included)
// when scontrol cannot tell.
nicd::Result<std::string> currentDrainReason(const std::string& node);
// On failure an Error saying what went wrong, scontrol's own words included.
nicd::Result<void> drainNode(const std::string& node, const std::string& reason);
nicd::Result<void> resumeNode(const std::string& node);

} // namespace nicctl::slurm
