// The node's files around its devices that nicd reads: routes (which netdev is management),
// the boot ID (which journal entries are this boot's), nicd's configuration (nicd.conf and the
// *.conf drop-ins nicd reads), the driver-ready file, the rdma_cm configfs ToS of the captured
// devices; and, kept apart under run/nicd-sim/capture/said/ so that a replay does not overwrite
// them, what nicd itself last said on the node (its textfile and its state file). Also what names
// the node (hostnames, machine ID, boot ID), for the scrubber.
//
// The paths nicd's configuration names (DriverReadyFile=, the textfile's Path=, StateDirectory=)
// are normalised and must stay inside the source, resolved too (paths::resolveBeneath, as nicd
// checks a tree's configuration): one that leads out is not read (noted), so a tree's
// configuration never brings in a file from elsewhere, nor lands outside the capture. Every file
// is read through NodeRoot: a symlink is noted, never read through; /proc/net's kernel links
// (self/net, self -> PID) are the only ones followed, by their shape.
#pragma once

#include "capture/capture_tree.hpp"
#include "capture/manifest.hpp"
#include "capture/node_files.hpp"
#include "capture/sysfs_walk.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace nicd::sim::capture {

struct HostNames {
    std::string boot_id;                // 32 hex digits
    std::string machine_id;             // etc/machine-id, empty when none
    std::vector<std::string> hostnames; // every name the node goes by
    std::vector<std::string> if_inet6;  // proc/net/if_inet6 (learnt, not captured)
};

HostNames captureHostFiles(const NodeRoot& root, NodeKind kind, const CapturedNode& node,
                           CaptureTree& tree, Manifest& manifest);

// Where `path` (under `src`, as HostPaths makes it) leads, relative to `src`: normalised as the
// host path it stands for ("/run/../../x" is "/x"), then its links followed while they stay
// beneath `src`. nullopt when a symlink leads out. Pure but for resolving links that exist.
std::optional<std::string> insideSource(const std::filesystem::path& src,
                                        const std::filesystem::path& path);

} // namespace nicd::sim::capture
