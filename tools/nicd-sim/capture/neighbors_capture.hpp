// What the host's lldpd hears, in a capture: run/nicd-sim/lldp/neighbors.json, lldpcli's JSON
// (neighbor/lldpcli_json.hpp), which nicd reads under --root as the twin of lldpd.
//
//   a simulated node with a twin  its twin, copied once it parses (one lldpcli printed, or
//                                 nicd-sim wrote);
//   any other node                lldpd asked through nicd's own client (neighbor/lldpd_client:
//                                 liblldpctl on the node's run/lldpd.socket, as nicd asks it
//                                 under that root), its answer written in lldpcli's JSON.
//
// When lldpd does not answer (not installed, not running, the socket refused), no twin is written
// and the manifest says why: the replay then finds no lldpd either, as nicd did on the node.
//
// The switches' identities are the site's, not the capture's: scrubNeighbors fakes each chassis
// ID (a MAC as the netdevs' MACs, an address as the routes' addresses, any other kind as a
// hostname), each system name (a hostname; one too short or plain to be replaced elsewhere as a
// word, "1" or "switch", becomes switch-k in the twin alone), each management address and each
// port ID that is a MAC; the port names (swp12) and the TLVs stay.
#pragma once

#include "capture/capture_tree.hpp"
#include "capture/identifier_map.hpp"
#include "capture/manifest.hpp"
#include "capture/node_files.hpp"

#include <chrono>
#include <filesystem>
#include <string>

namespace nicd::sim::capture {

std::string neighborsPath();                         // run/nicd-sim/lldp/neighbors.json
inline constexpr size_t kMaxNeighborsTwin = 4 << 20; // as nicd reads it

void captureNeighbors(NodeKind kind, const std::filesystem::path& src, const FileReader& reader,
                      std::chrono::milliseconds timeout, CaptureTree& tree, Manifest& manifest);

// The twin with the identifiers above replaced (lldpcli's JSON in, lldpcli's JSON out); throws
// plugin::sdk::DecodeError for a twin that does not parse.
std::string scrubNeighbors(const std::string& json, IdentifierMap& ids);

} // namespace nicd::sim::capture
