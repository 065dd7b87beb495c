// The simulated twin of the host's LLDP agent: what lldpd hears on each netdev, as
// `lldpcli -f json0 show neighbors details` prints it, in DIR/run/nicd-sim/lldp/neighbors.json
// (nicd reads it under --root: neighbor/neighbor_source.hpp). Written and read with nicd's own
// neighbor/lldpcli_json.hpp, the one reader and writer of that format.
//
// A new node's Ethernet ports are cabled as a rail-optimised GPU cluster is: compute NIC of rail r
// (SimDevice::rail) to leaf-<r> (two digits: leaf-01) port swp1; every other Ethernet port with a
// link (storage, a LAG's members) to storage-leaf-01 swp1, swp2, ... in PCI order. InfiniBand
// ports hear no LLDP; neither does a VF (the switch's frames stop at its PF's uplink), nor a port
// without a link. Each switch port sends the DCBX TLVs of switch_tlvs.hpp, which agree with nicd's
// default host QoS.
//
// The faults change the twin under the node's lock and replace it atomically; DEV names an RDMA
// device and its port's netdev is the one lldpd hears on (a LAG's: its first member). They throw
// SimError for an InfiniBand device, a VF, a node without a twin, or while lldpd is stopped.
#pragma once

#include "model/neighbor.hpp"
#include "node_state.hpp"

#include <map>
#include <string>
#include <vector>

namespace nicd::sim {

using NeighborMap = std::map<std::string, std::vector<LldpNeighbor>>;

inline constexpr uint32_t kSwitchTtlSeconds = 120;

fs::path neighborTwinFile(const fs::path& root); // DIR/run/nicd-sim/lldp/neighbors.json
fs::path stoppedTwinFile(const fs::path& root);  // the same + ".stopped" (lldpd-stop)

// The switch port `port` of `switch_name` as lldpd hears it: chassis ID a MAC made up from the
// switch's name (02:xx:..., locally administered: the same name gives the same MAC), system name
// `switch_name`, port ID `port` (type ifname, also its description), TTL 120, management address
// 10.0.<n>.1 for leaf-<n> (10.<n/256>.<n%256>.1 above 255), 10.255.<k>.1 for storage-leaf-<k>,
// 10.254.<h>.1 for another name (h from its name), and `tlvs`.
LldpNeighbor switchPort(const std::string& switch_name, const std::string& port,
                        std::vector<OrgTlv> tlvs);

// What a node made by create hears (the cabling above), from its state and its netdevs' links.
NeighborMap cabledNeighbors(const fs::path& root, const NodeState& st);

// Writes the twin of a node create just made (nicd-sim create calls it after sim::create).
void createNeighborTwin(const fs::path& root);

// The twin as it is now (an empty map for a twin that lists nobody); SimError when there is none
// or it does not parse.
NeighborMap readNeighborTwin(const fs::path& root);

// neighbor: DEV's port is cabled to SWITCH's PORT (the TLVs it heard are kept; the default ones
// when it heard none). neighbor-clear: DEV hears no neighbour (its entry goes).
void neighborSet(const fs::path& root, const std::string& dev, const std::string& switch_name,
                 const std::string& port);
void neighborClear(const fs::path& root, const std::string& dev);
// neighbor-add: a further neighbour heard on DEV's netdev, SWITCH's PORT with the default TLVs
// (a hub, or a switch port leaking LLDP); its clear: only the first neighbour stays.
void neighborAdd(const fs::path& root, const std::string& dev, const std::string& switch_name,
                 const std::string& port);
void neighborAddClear(const fs::path& root, const std::string& dev);
// cable-swap: the two ports' neighbours swapped (two cables swapped at the patch panel); swapping
// again (cable-swap-clear) undoes it.
void cableSwap(const fs::path& root, const std::string& dev1, const std::string& dev2);
// switch-pfc: DEV's switch port (its first neighbour) advertises PFC on `pfc_bitmap` (bit n =
// priority n); switch-pfc-clear: that neighbour's TLVs back to the default ones.
void switchPfcSet(const fs::path& root, const std::string& dev, uint8_t pfc_bitmap);
void switchPfcClear(const fs::path& root, const std::string& dev);
// lldpd-stop: the host's lldpd stops (the twin moved aside to neighbors.json.stopped, so nicd
// finds no lldpd); `on` false: it runs again, hearing what it heard before.
void lldpdStop(const fs::path& root, bool on);

} // namespace nicd::sim
