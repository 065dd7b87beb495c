// GIDs as sysfs prints them (ports/N/gids/<i>: the kernel's %pI6, eight groups of four hex
// digits, "fe80:0000:0000:0000:b83f:d2ff:fe5a:0002") and what kind of address each is. A RoCE v2
// GID is the netdev's IP address (an IPv4 one as ::ffff:a.b.c.d); NCCL picks, by default, the
// RoCE v2 GID of an IPv4 address (NCCL_IB_ADDR_FAMILY=AF_INET, NCCL_IB_ROCE_VERSION_NUM=2:
// ncclIbGetGidIndex in NCCL's src/transport/net_ib.cc), and a port whose only GIDs are the
// link-local ones every netdev has (fe80::/64, from its MAC) has no IP address to be reached at.
// Pure.
#pragma once

#include "model/readiness.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace nicd::readiness {

enum class GidKind : uint8_t {
    Zero,       // an unused entry
    Ipv4Mapped, // ::ffff:a.b.c.d: an IPv4 address
    LinkLocal,  // fe80::/10: the address every netdev (and every InfiniBand port) has
    Ipv6,       // any other: an IPv6 address (global or unique local)
};

// "fe80:0000:0000:0000:b83f:d2ff:fe5a:0002" (eight groups of 1 to 4 hex digits, whitespace
// around it trimmed) -> its 16 bytes; anything else nullopt.
std::optional<Gid> parseGid(std::string_view text);
// The kernel's form: eight groups of four lower-case hex digits.
std::string sysfsGidText(const Gid& gid);
// The address as people write it: "::ffff:10.0.0.5", "fe80::ba3f:d2ff:fe5a:2".
std::string gidAddress(const Gid& gid);
GidKind gidKind(const Gid& gid);
// An address a RoCE v2 GID carries that NCCL can use (IPv4 or a non-link-local IPv6 address).
bool carriesIpAddress(const Gid& gid);

} // namespace nicd::readiness
