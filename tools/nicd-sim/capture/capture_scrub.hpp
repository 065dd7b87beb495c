// The scrubbing pass over a whole capture before it is written (identifier_map.hpp says what is
// replaced by what). In this order, so that fakes are numbered the same way for the same node:
// the node's own names (hostnames, machine ID, boot ID, IPv6 addresses) and the RDMA devices'
// firmware versions (never scrubbed, though bnxt's look like IPv4 addresses), then every entry in
// path order by its kind (scrub_text.hpp, module_scrub.hpp: a module image that cannot be scrubbed
// is left out, noted), then the kernel lines, then the drop-ins' file names, then names derived
// from an identifier (enx<MAC> netdevs, GUID-named RDMA devices) in every path and link target; and
// last, every original met anywhere is replaced wherever else it appears, in every text file.
#pragma once

#include "capture/capture_tree.hpp"
#include "capture/host_files.hpp"
#include "capture/identifier_map.hpp"
#include "capture/kernel_lines.hpp"
#include "capture/manifest.hpp"

#include <vector>

namespace nicd::sim::capture {

void scrubCapture(CaptureTree& tree, std::vector<KernelEntry>& lines, const HostNames& names,
                  IdentifierMap& ids, Manifest& manifest);

} // namespace nicd::sim::capture
