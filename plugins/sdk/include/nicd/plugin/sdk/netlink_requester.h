// The one owner of a netlink socket that sends requests and reads their replies: the RDMA stats
// client (NETLINK_RDMA), the DCB client (NETLINK_ROUTE), ethtool and devlink (NETLINK_GENERIC)
// each hold one and keep only their family's request bytes and payload decoding. It opens the
// socket on first use, connected to the kernel (so only the kernel can send to it), with extended
// acks; numbers the requests (it writes the sequence number into each); reads the datagrams of
// that number with one deadline, skipping the late answer to a request given up on; ends the
// answer as the request's flags say (netlink_answer.h); and turns NLMSG_ERROR into the errno and
// the kernel's text. Each reply message's payload goes to the caller's decoder as it arrives.
//
// Why raw sockets and not libnl's nl_sock: a request/reply over a given socket (a test's stand-in
// for the kernel) and a read that allocates nothing (the RDMA stats path runs for every port every
// cycle) are both out of reach through nl_recv, which allocates each datagram and wants an
// AF_NETLINK socket. Requests may still be built with libnl (nl_msg) and handed over as bytes.
//
// The kernel carries out a request within the send (in the caller's thread), so a request that
// hangs in a driver blocks the send; the receive timeout covers an answer that never comes.
// Not thread-safe: one per thread or per serialized caller.
#pragma once

#include <nicd/plugin/sdk/netlink_answer.h>

#include <chrono>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace nicd::plugin::sdk {

// How an exchange ended. Answered: the kernel answered (`error` its errno, 0 for success).
// Otherwise nothing trustworthy arrived and `why` says what failed, `error` the errno:
enum class NetlinkEnd : uint8_t {
    Answered,
    NoSocket,      // socket() refused (no such protocol, no permission): nothing was sent
    SocketFailed,  // the socket could not be set up, or the given one failed earlier
    SendFailed,    // send(): `error` its errno
    ReceiveFailed, // recv() failed, the peer closed, or a datagram larger than the buffer
    Timeout,       // no (complete) answer within the timeout: ETIMEDOUT
    Malformed,     // bytes that cannot be trusted, or the decoder's DecodeError: EBADMSG
};

struct NetlinkOutcome {
    NetlinkEnd end = NetlinkEnd::Answered;
    int error = 0;            // Answered: the kernel's errno (0: success); otherwise what failed
    std::string extack;       // Answered: the kernel's text (NLMSGERR_ATTR_MSG), when it sent one
    std::string why;          // not Answered: "no answer within 50 ms", "malformed answer: ..."
    bool interrupted = false; // a dump part flagged NLM_F_DUMP_INTR: the list changed meanwhile

    bool answered() const { return end == NetlinkEnd::Answered; }
    bool ok() const { return answered() && error == 0; }
};

// A reference to the caller's decoder of one reply payload, without allocating (std::function
// may). May throw DecodeError: the exchange then ends Malformed.
class PayloadSink {
public:
    template <class F>
    requires(!std::is_same_v<std::remove_cvref_t<F>, PayloadSink>)
        PayloadSink(F& f) // NOLINT: an implicit conversion from the caller's lambda is the point
        : object_(const_cast<void*>(static_cast<const void*>(&f))),
          call_([](void* o, std::span<const uint8_t> p) { (*static_cast<F*>(o))(p); })
    {
    }
    void operator()(std::span<const uint8_t> payload) const { call_(object_, payload); }

private:
    void* object_;
    void (*call_)(void*, std::span<const uint8_t>);
};

// A socket given to the requester instead of one it opens: already connected to whatever answers
// as the kernel would (a test's peer). The requester takes it; once it fails, it is not reopened.
struct GivenNetlinkSocket {
    int fd = -1;
};

class NetlinkRequester {
public:
    // `protocol`: NETLINK_ROUTE, NETLINK_GENERIC, NETLINK_RDMA...; opened at the first request.
    // `where` names the answers in a DecodeError of the splitter ("RDMA netlink: message at
    // offset ..."); a literal (it must outlive the requester).
    NetlinkRequester(int protocol, std::chrono::milliseconds timeout, std::string_view where);
    NetlinkRequester(GivenNetlinkSocket socket, std::chrono::milliseconds timeout,
                     std::string_view where);
    ~NetlinkRequester();
    NetlinkRequester(const NetlinkRequester&) = delete;
    NetlinkRequester& operator=(const NetlinkRequester&) = delete;

    // Sends `request` (one whole message; its nlmsg_seq is overwritten with the next number, its
    // flags say how the answer ends) and reads the answer, handing the payload of each message
    // of `reply_type` to `decode` in order. A failure other than Timeout or the kernel's refusal
    // closes the socket (what is queued on it cannot be trusted); the next request opens a fresh
    // one. After a timeout the socket is kept: the late answer is skipped by its number.
    template <class Decode>
    NetlinkOutcome exchange(std::span<uint8_t> request, uint16_t reply_type, Decode&& decode)
    {
        return exchangeWith(request, reply_type, PayloadSink(decode));
    }

    // The protocol's name for messages: "NETLINK_RDMA", "NETLINK_GENERIC"...
    const char* protocolName() const;
    std::chrono::milliseconds timeout() const { return timeout_; }
    // Requests sent so far (each is one send and, as a rule, one receive).
    uint64_t requests() const { return requests_; }

private:
    NetlinkOutcome exchangeWith(std::span<uint8_t> request, uint16_t reply_type,
                                PayloadSink decode);
    NetlinkOutcome open();
    NetlinkOutcome fail(NetlinkEnd end, std::string why, int error);
    void closeSocket();
    int setReceiveTimeout(std::chrono::microseconds timeout); // 0 or the errno

    int protocol_ = -1;
    int fd_ = -1;
    std::string_view where_;
    bool own_socket_ = true; // false: given by the caller, never reopened
    bool failed_ = false;    // the given socket failed
    bool timeout_shortened_ = false;
    std::chrono::milliseconds timeout_;
    uint32_t seq_ = 0;
    uint64_t requests_ = 0;
    std::vector<uint8_t> buffer_;
    NetlinkAnswer answer_;
};

} // namespace nicd::plugin::sdk
