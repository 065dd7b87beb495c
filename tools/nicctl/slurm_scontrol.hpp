// slurm-check's side of Slurm: `scontrol show node` read for the node's drain reason, and
// `scontrol update` to drain or resume it. scontrol is run directly (no shell), from PATH (slurmd
// runs a health check with a minimal environment: execvp then searches /bin:/usr/bin).
#pragma once

#include "text/result.hpp"

#include <optional>
#include <string>
#include <vector>

namespace nicctl::slurm {

// The drain reason of `node` in `scontrol show node NODE`'s output without Slurm's
// " [user@time]" suffix; "" when the node has none. An Error when the text does not describe
// exactly that one node: no node, several (a NodeSet name, `ALL`, a host list) or another one.
nicd::Result<std::string> drainReasonOf(const std::string& show_node_output,
                                        const std::string& node);

// A Slurm node name as slurm-check accepts it (from SLURMD_NODENAME, the host name or --node):
// letters, digits, '.', '_' and '-', at most 64, and not `ALL` in any case (Slurm's every node);
// anything else could be read by scontrol as more than a name. A NodeSet name passes this
// check: drainReasonOf() refuses it, as scontrol shows it as several nodes.
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
