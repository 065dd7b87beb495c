// The pre-failure sources read on a port's uplink netdev (uplinks.hpp): FEC statistics (ethtool
// netlink FEC_GET with statistics; Ethernet only — InfiniBand ports keep the symbol-error rule)
// and the optical module's EEPROM (ethtool netlink MODULE_EEPROM_GET, page by page). Under
// --root both read the simulator's captures instead (capture_files.hpp).
#pragma once

#include "collect/source.hpp"
#include "config/host_paths.hpp"
#include "prefailure/keyed_source.hpp"

#include <memory>
#include <vector>

namespace nicd::prefailure {

// In the order they must be added: the uplinks (into every snapshot: where FEC and module
// values belong), then FEC and module EEPROMs, which read the uplinks the first found in the
// same cycle (the bonds' members are walked once per read, not three times).
std::vector<std::unique_ptr<collect::Source>> makeLinkSources(const HostPaths& paths,
                                                              SourceTiming timing);

} // namespace nicd::prefailure
