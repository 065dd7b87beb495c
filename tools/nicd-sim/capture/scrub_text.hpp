// Pure scrubbers for the text a capture carries: each takes the original text and the node's
// IdentifierMap and returns the text with every identifier replaced by its fake (the map learns
// the originals it meets). With a keeping map they return the text unchanged.
#pragma once

#include "capture/identifier_map.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace nicd::sim::capture {

// Text nobody formatted for us (kernel lines, nicd's own output, state and configuration)
// (free_text.cpp): hardware addresses ("aa:bb:cc:dd:ee:ff", 6 bytes or more; a MAC also as
// "aa-bb-cc-dd-ee-ff" or "aabb.ccdd.eeff"), GUIDs ("b83f:d203:005a:1a00"), IPv6 addresses in any
// notation ("fe80::1", "2001:db8:0:0:0:0:0:1", "::ffff:10.1.2.3"; a zone such as "%eth0" stays),
// dotted IPv4 addresses, and a journal cursor's boot and journal IDs ("s=<32 hex>", "b=<32
// hex>"; its entry hash "x=" becomes 0) are found wherever they stand alone (not inside a longer
// hex or dotted run: PCI addresses, versions and times are left alone) and replaced.
std::string scrubFreeText(std::string_view text, IdentifierMap& ids);

// Replaces every known original (IdentifierMap::knownForms) wherever it occurs, in any case where
// the form says so; a whole-word form only where it is not part of a longer name or number. The
// last pass over every text file of a capture.
std::string replaceKnownForms(std::string_view text, const std::vector<IdentifierMap::Form>& forms);

// /proc/net/route: Destination and Gateway (little-endian hex, as the kernel prints them) of
// every line but the header; masks, flags and the layout (tabs, the padding to 127 columns) stay.
std::string scrubIpv4Routes(std::string_view text, IdentifierMap& ids);
// /proc/net/ipv6_route: destination, source and next hop (32 hex digits each).
std::string scrubIpv6Routes(std::string_view text, IdentifierMap& ids);
// /proc/net/if_inet6 lines start with an address of 32 hex digits: the node's own addresses,
// learnt so that they are replaced wherever they appear (the file itself is not captured).
void learnIpv6Addresses(std::string_view if_inet6, IdentifierMap& ids);

} // namespace nicd::sim::capture
