// Which netdevs carry a default route: the management NICs provisioning leaves alone unless
// [provision] IncludeNetdevs= names them. Pure parsers of /proc/net/route and /proc/net/ipv6_route.
#pragma once

#include <set>
#include <string>
#include <string_view>

namespace nicd::provision {

// /proc/net/route: lines whose Destination and Mask are 00000000 and whose flags have RTF_UP.
std::set<std::string> ipv4DefaultRouteNetdevs(std::string_view proc_net_route);

// /proc/net/ipv6_route: lines for ::/0 (destination all zeros, prefix length 00) with RTF_UP,
// except the kernel's unreachable catch-all on "lo".
std::set<std::string> ipv6DefaultRouteNetdevs(std::string_view proc_net_ipv6_route);

} // namespace nicd::provision
