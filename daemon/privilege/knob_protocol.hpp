// The messages between nicd and its knob writer, one datagram each over a SOCK_SEQPACKET pair.
// A request: the operation's byte ('W' or 'G'), the knob's path relative to the root, a NUL,
// the value (empty for 'G'). A reply: the errno of the change (0: done), 4 bytes little-endian,
// then a one-line message naming the file. Pure; the writer trusts nothing of a request.
#pragma once

#include "privilege/knob_shapes.hpp"

#include <nicd/plugin/sdk/netlink_attrs.h>

#include <cstddef>
#include <string>
#include <string_view>

namespace nicd::privilege {

inline constexpr size_t kKnobMessageMax = 4096;

struct KnobRequest {
    KnobOp op = KnobOp::Write;
    std::string path; // relative to the root: "sys/class/net/ens1f0np0/ecn/roce_np/enable/3"
    std::string value;
};

struct KnobReply {
    int err = 0;         // 0, or the errno of what failed
    std::string message; // empty when done
};

std::string encodeKnobRequest(const KnobRequest& r);
// The request; throws plugin::sdk::DecodeError saying why the bytes are none.
KnobRequest decodeKnobRequest(std::string_view bytes);

std::string encodeKnobReply(const KnobReply& r);
// A reply too short to hold its errno is an EPROTO failure.
KnobReply decodeKnobReply(std::string_view bytes);

} // namespace nicd::privilege
