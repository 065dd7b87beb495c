// The readiness source's reads of one port, one device and one bridge, each straight from sysfs
// (and /dev): what they cannot read is left absent, never guessed.
//   port:   ports/N/gids/<i> (an unused entry reads as the zero GID), gid_attrs/types/<i> and
//           gid_attrs/ndevs/<i> of the used ones (unused ones read EINVAL), ports/N/lid, and the
//           MTU of the port's first netdev (/sys/class/net/<netdev>/mtu);
//   device: <function>/infiniband_verbs/uverbs<N> whose `ibdev` names it (ib_uverbs registers
//           one per RDMA device; /sys/class/infiniband_verbs/uverbs<N> leads to the same) and
//           /dev/infiniband/uverbs<N> (udev makes it; ibv_open_device opens it);
//   bridge: its config file, at most 4096 bytes (acs_config.hpp decodes it).
#pragma once

#include "config/host_paths.hpp"
#include "model/inventory.hpp"
#include "model/readiness.hpp"

#include <filesystem>
#include <string>

namespace nicd::readiness {

PortReadinessInputs readPortInputs(const HostPaths& paths, const Device& device, const Port& port);
VerbsDeviceInputs readVerbsDevice(const HostPaths& paths, const Device& device);
AcsInputs readBridgeAcs(const std::filesystem::path& bridge_dir);

} // namespace nicd::readiness
