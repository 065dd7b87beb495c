// Pure decoding of what `lldpcli -f json0 show neighbors details` prints: the simulator's twin of
// lldpd (run/nicd-sim/lldp/neighbors.json in a --root tree) and what `nicd-sim capture` records on
// a real node, so that one format serves both. json0 is lldpcli's format whose every value is an
// array (the plain json format folds single values into objects and cannot be told from a
// malformed file); only it is read.
//
// The text is a file of someone else's making (a capture): a value of the wrong type, an
// interface name a netdev cannot have, a string longer than LLDP carries (255 bytes) or a TLV
// whose hex does not parse throws plugin::sdk::DecodeError naming the interface and the key;
// lldpcli never prints such a file.
#pragma once

#include "model/neighbor.hpp"

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace nicd::neighbor {

// At most this many neighbours an interface and interfaces a file: lldpd keeps a few neighbours a
// port, a node has a few dozen netdevs. More is not a file lldpcli printed.
inline constexpr size_t kMaxNeighborsPerNetdev = 16;
inline constexpr size_t kMaxLldpInterfaces = 4096;

// The neighbours by netdev, in the order lldpcli printed them. An empty document, `{}` or
// `{"lldp": [{}]}` (lldpcli's answer when no neighbour is known) is an empty map.
std::map<std::string, std::vector<LldpNeighbor>> parseLldpcliNeighbors(std::string_view json);

// The same neighbours as lldpcli prints them (json0, two-space indented): what nicd-sim's twin
// and `nicd-sim capture` write. parseLldpcliNeighbors(toLldpcliJson(n)) == n.
std::string toLldpcliJson(const std::map<std::string, std::vector<LldpNeighbor>>& neighbors);

// The information string of an unknown TLV as lldpcli prints it ("08,18": hex bytes separated by
// commas) and back. Throws DecodeError on anything else.
std::vector<uint8_t> parseLldpcliHex(std::string_view text);
std::string lldpcliHex(const std::vector<uint8_t>& bytes);

} // namespace nicd::neighbor
