// What the kernel has said so far about one netlink request: the datagrams read from a socket
// matched to the request by its sequence number, its end found (the one reply, the ack, or
// NLMSG_DONE), its status read with decodeNetlinkStatus. Pure: NetlinkRequester
// (netlink_requester.h) feeds it every datagram it receives; the tests and fuzzers feed it bytes.
// One matcher for every request nicd sends (RDMA, DCB, ethtool, devlink, the generic netlink
// controller), so that a stale reply, a dump's parts and an error with extended ack are read the
// same way everywhere. Allocates nothing once `messages` has grown to a datagram's replies.
#pragma once

#include <nicd/plugin/sdk/netlink_messages.h>

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace nicd::plugin::sdk {

// How a request's answer ends, from the flags it was sent with.
enum class NetlinkReplies : uint8_t {
    One,        // NLM_F_REQUEST alone: the reply (or an NLMSG_ERROR) is the whole answer
    OneThenAck, // NLM_F_ACK: replies, then the NLMSG_ERROR that acks (0) or refuses the request
    Dump,       // NLM_F_DUMP: parts until NLMSG_DONE (or an NLMSG_ERROR)
};

// NLM_F_DUMP → Dump, NLM_F_ACK → OneThenAck, otherwise One: what `request_flags` ask for.
NetlinkReplies repliesOf(uint16_t request_flags);

// What the kernel has said so far about one request (one sequence number).
struct NetlinkAnswer {
    bool finished = false;    // the reply (One), the ack or error, or NLMSG_DONE
    int error = 0;            // positive errno of NLMSG_ERROR or of NLMSG_DONE; 0 when none
    std::string extack;       // the kernel's NLMSGERR_ATTR_MSG, when it sent one
    bool interrupted = false; // a dump part flagged NLM_F_DUMP_INTR: the list changed meanwhile
    // The payload (what follows the nlmsghdr) of each message of the reply type the last
    // datagram held, in order; they point into that datagram.
    std::vector<std::span<const uint8_t>> messages;

    // Ready for the next request; keeps what it allocated.
    void reset()
    {
        finished = interrupted = false;
        error = 0;
        extack.clear();
        messages.clear();
    }
};

// Feeds one datagram into `answer` (its `messages` cleared first). Messages with another sequence
// number are skipped (the late reply to a request given up on); NLMSG_NOOP too. A message of
// `reply_type` is kept; for One it finishes the answer. NLMSG_ERROR finishes any answer with its
// errno (0: an ack), NLMSG_DONE a dump. Nothing after the message that finishes is split.
// Throws DecodeError ("<where>: message at offset ..." as NetlinkMessages words it) on a length
// past the datagram, a truncated error or done message, a message with the sequence number but of
// another type ("<where> message at offset O has type T, expected R"), and with
// NetlinkTail::Rejected on a tail too short for a header.
void absorbNetlinkDatagram(std::span<const uint8_t> datagram, uint32_t seq, uint16_t reply_type,
                           NetlinkReplies replies, NetlinkAnswer& answer, std::string_view where,
                           NetlinkTail tail = NetlinkTail::Ignored);

} // namespace nicd::plugin::sdk
