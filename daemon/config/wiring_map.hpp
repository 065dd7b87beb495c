// The wiring map ([health] WiringMap=): which switch port each NIC port's cable should reach, as
// the fabric's design says, checked against what the port hears in LLDP (health/neighbor_rules).
// One line a port, with shell globs so that one file serves a rail-optimised fleet:
//
//   # port (netdev or PCI address)   switch            switch port (optional, default *)
//   0000:1a:00.0                     su*-leaf-01       swp*
//   ens1f1np1                        su?-leaf-0[1-4]
//
// The first line whose port matches a port's PCI address or one of its netdevs is its
// expectation. Comments start with '#'; blank lines are skipped. A line with fewer than two or
// more than three words, a word with a byte outside names and globs, or a port given twice is an
// error naming the file and line, so that a typo is refused, not silently never matched.
#pragma once

#include "text/result.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace nicd::config {

struct WiringRule {
    std::string port;        // glob over the PCI address or a netdev name
    std::string switch_name; // glob over the switch's system name (or chassis ID)
    std::string switch_port; // glob over its port ID or description; "*" when not given
    int line = 0;            // where in the map file

    bool operator==(const WiringRule&) const = default;
};

struct WiringMap {
    std::string file; // as named by WiringMap= (the path a message names)
    std::vector<WiringRule> rules;

    bool operator==(const WiringMap&) const = default;
};

struct WiringMapError {
    int line = 0;
    std::string message;
};

// At most this many lines: a node has a few dozen ports, a fleet's file a few per rail.
inline constexpr size_t kMaxWiringRules = 4096;

// Parses the map's text; every error, by line.
std::vector<WiringMapError> parseWiringMap(std::string_view text, std::vector<WiringRule>& rules);

// Whether `value` matches the shell glob `glob` (fnmatch, no flags).
bool globMatches(const std::string& glob, const std::string& value);

} // namespace nicd::config
