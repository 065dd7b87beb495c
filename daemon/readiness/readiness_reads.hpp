// The readiness source's reads of one port, one device and one bridge, each straight from sysfs
// (and /dev): what they cannot read is left absent, never guessed.
//   port:   ports/N/gids/<i> (an unused entry reads as the zero GID), gid_attrs/types/<i> and
//           gid_attrs/ndevs/<i> of the used ones (unused ones read EINVAL), ports/N/lid, and the
//           MTU of the port's first netdev (/sys/class/net/<netdev>/mtu);
//   device: <function>/infiniband_verbs/uverbs<N> whose `ibdev` names it (ib_uverbs registers
//           one per RDMA device; /sys/class/infiniband_verbs/uverbs<N> leads to the same) and
//           /dev/infiniband/uverbs<N> (udev makes it; ibv_open_device opens it);
//   InfiniBand port: <function>/infiniband_mad/{umad,issm}<N> whose `ibdev` and `port` name it
//           (ib_umad registers one of each per port; /sys/class/infiniband_mad/ leads to the
//           same) and their /dev/infiniband nodes (udev makes them), and ports/N/cap_mask's
//           IsSMDisabled bit (a multi-plane port, which has no issm by design);
//   bridge: its config file, at most 4096 bytes (acs_config.hpp decodes it).
#pragma once

#include "config/host_paths.hpp"
#include "model/inventory.hpp"
#include "model/readiness.hpp"

#include <filesystem>
#include <optional>
#include <string>

namespace nicd::readiness {

PortReadinessInputs readPortInputs(const HostPaths& paths, const Device& device, const Port& port);
VerbsDeviceInputs readVerbsDevice(const HostPaths& paths, const Device& device);
// nullopt when an entry went away under the read (its ibdev or port could not be read).
std::optional<MadPortInputs> readMadPort(const HostPaths& paths, const Device& device,
                                         const Port& port);
AcsInputs readBridgeAcs(const std::filesystem::path& bridge_dir);

} // namespace nicd::readiness
