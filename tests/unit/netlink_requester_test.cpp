// plugin::sdk::NetlinkRequester against a stand-in for the kernel (support/fake_rdma_kernel.hpp: a
// SOCK_SEQPACKET pair answering each request with datagrams): how an acked request, a dump and a
// single reply end, what reaches the decoder, and what a refusal, a timeout or bad bytes leave of
// the socket. The RDMA, DCB, ethtool and devlink clients' tests cover their words on top of it.
#include "support/fake_rdma_kernel.hpp"

#include <nicd/plugin/sdk/netlink_requester.h>

#include <linux/netlink.h>

#include <cerrno>
#include <chrono>
#include <span>
#include <vector>

#include <gtest/gtest.h>

using namespace nicd::test;
namespace sdk = nicd::plugin::sdk;
using namespace std::chrono_literals;

namespace {

constexpr uint16_t kRequesterReply = 0x30; // a family's message type, as the kernel assigns one

Bytes requesterRequest(uint16_t flags)
{
    return nlmsg(kRequesterReply, flags, 0, {});
}

Bytes requesterReply(uint32_t seq, uint8_t marker, uint16_t flags = 0)
{
    return nlmsg(kRequesterReply, flags, seq, {marker, 0, 0, 0});
}

// Sends a request with `flags` and returns the first byte of each reply payload the decoder got.
std::vector<uint8_t> requestMarkers(sdk::NetlinkRequester& requester, uint16_t flags,
                                    sdk::NetlinkOutcome& out)
{
    Bytes request = requesterRequest(flags);
    std::vector<uint8_t> markers;
    auto decode = [&](std::span<const uint8_t> payload) { markers.push_back(payload[0]); };
    out = requester.exchange(request, kRequesterReply, decode);
    return markers;
}

} // namespace

TEST(NetlinkRequester, AnAckedRequestEndsAtItsAckAndEachRequestHasTheNextNumber)
{
    FakeRdmaKernel kernel([](const RdmaRequest& r) -> std::vector<Bytes> {
        return {requesterReply(r.seq, 1), nlError(r.seq, 0)};
    });
    sdk::NetlinkRequester requester(sdk::GivenNetlinkSocket{kernel.takeClientFd()}, 2000ms,
                                    "test netlink");
    for (int i = 0; i < 2; ++i) {
        sdk::NetlinkOutcome out;
        EXPECT_EQ(requestMarkers(requester, NLM_F_REQUEST | NLM_F_ACK, out),
                  std::vector<uint8_t>{1});
        EXPECT_TRUE(out.ok()) << out.why;
    }
    const auto requests = kernel.requests();
    ASSERT_EQ(requests.size(), 2U);
    EXPECT_EQ(requests[1].seq, requests[0].seq + 1);
    EXPECT_EQ(requester.requests(), 2U);
}

TEST(NetlinkRequester, ARefusalKeepsItsErrnoAndTextAndTheSocket)
{
    FakeRdmaKernel kernel([](const RdmaRequest& r) -> std::vector<Bytes> {
        if (r.seq == 1)
            return {nlError(r.seq, EOPNOTSUPP, "not on this device")};
        return {nlError(r.seq, 0)};
    });
    sdk::NetlinkRequester requester(sdk::GivenNetlinkSocket{kernel.takeClientFd()}, 2000ms,
                                    "test netlink");
    sdk::NetlinkOutcome out;
    EXPECT_TRUE(requestMarkers(requester, NLM_F_REQUEST | NLM_F_ACK, out).empty());
    EXPECT_EQ(out.end, sdk::NetlinkEnd::Answered);
    EXPECT_EQ(out.error, EOPNOTSUPP);
    EXPECT_EQ(out.extack, "not on this device");
    requestMarkers(requester, NLM_F_REQUEST | NLM_F_ACK, out);
    EXPECT_TRUE(out.ok()) << out.why;
}

TEST(NetlinkRequester, ADumpEndsAtDoneAcrossDatagramsAndSaysItWasInterrupted)
{
    FakeRdmaKernel kernel([](const RdmaRequest& r) -> std::vector<Bytes> {
        return {requesterReply(r.seq, 1, NLM_F_MULTI),
                cat({requesterReply(r.seq, 2, NLM_F_MULTI | NLM_F_DUMP_INTR), nlDone(r.seq)})};
    });
    sdk::NetlinkRequester requester(sdk::GivenNetlinkSocket{kernel.takeClientFd()}, 2000ms,
                                    "test netlink");
    sdk::NetlinkOutcome out;
    EXPECT_EQ(requestMarkers(requester, NLM_F_REQUEST | NLM_F_DUMP, out),
              (std::vector<uint8_t>{1, 2}));
    EXPECT_TRUE(out.ok()) << out.why;
    EXPECT_TRUE(out.interrupted);
}

TEST(NetlinkRequester, AStaleAnswerIsSkippedAndASingleReplyEndsTheAnswer)
{
    FakeRdmaKernel kernel([](const RdmaRequest& r) -> std::vector<Bytes> {
        return {requesterReply(r.seq + 7, 9), requesterReply(r.seq, 1)};
    });
    sdk::NetlinkRequester requester(sdk::GivenNetlinkSocket{kernel.takeClientFd()}, 2000ms,
                                    "test netlink");
    sdk::NetlinkOutcome out;
    EXPECT_EQ(requestMarkers(requester, NLM_F_REQUEST, out), std::vector<uint8_t>{1});
    EXPECT_TRUE(out.ok()) << out.why;
}

TEST(NetlinkRequester, BadBytesAreMalformedAndAGivenSocketIsNotReopened)
{
    FakeRdmaKernel kernel([](const RdmaRequest& r) -> std::vector<Bytes> {
        Bytes cut = requesterReply(r.seq, 1);
        cut.resize(cut.size() + 8, 0); // a tail too short for a header
        return {cut};
    });
    sdk::NetlinkRequester requester(sdk::GivenNetlinkSocket{kernel.takeClientFd()}, 2000ms,
                                    "test netlink");
    sdk::NetlinkOutcome out;
    requestMarkers(requester, NLM_F_REQUEST | NLM_F_ACK, out);
    EXPECT_EQ(out.end, sdk::NetlinkEnd::Malformed);
    EXPECT_EQ(out.error, EBADMSG);
    EXPECT_EQ(out.why, "malformed answer: test netlink: message at offset 20: truncated header "
                       "(8 bytes left)");
    requestMarkers(requester, NLM_F_REQUEST | NLM_F_ACK, out);
    EXPECT_EQ(out.end, sdk::NetlinkEnd::SocketFailed);
    EXPECT_EQ(out.why, "the socket failed earlier");
}

TEST(NetlinkRequester, ADecoderThatThrowsEndsTheExchangeAsMalformed)
{
    FakeRdmaKernel kernel(
        [](const RdmaRequest& r) -> std::vector<Bytes> { return {requesterReply(r.seq, 1)}; });
    sdk::NetlinkRequester requester(sdk::GivenNetlinkSocket{kernel.takeClientFd()}, 2000ms,
                                    "test netlink");
    Bytes request = requesterRequest(NLM_F_REQUEST);
    auto decode = [](std::span<const uint8_t>) { throw sdk::DecodeError("a reply without X"); };
    const auto out = requester.exchange(request, kRequesterReply, decode);
    EXPECT_EQ(out.end, sdk::NetlinkEnd::Malformed);
    EXPECT_EQ(out.why, "malformed answer: a reply without X");
}

TEST(NetlinkRequester, NoAnswerIsATimeoutAndATimeoutOfZeroReadsNothing)
{
    FakeRdmaKernel silent([](const RdmaRequest&) -> std::vector<Bytes> { return {}; });
    sdk::NetlinkRequester waiting(sdk::GivenNetlinkSocket{silent.takeClientFd()}, 30ms,
                                  "test netlink");
    sdk::NetlinkOutcome out;
    requestMarkers(waiting, NLM_F_REQUEST, out);
    EXPECT_EQ(out.end, sdk::NetlinkEnd::Timeout);
    EXPECT_EQ(out.error, ETIMEDOUT);
    EXPECT_EQ(out.why, "no answer within 30 ms");

    FakeRdmaKernel prompt(
        [](const RdmaRequest& r) -> std::vector<Bytes> { return {requesterReply(r.seq, 1)}; });
    sdk::NetlinkRequester impatient(sdk::GivenNetlinkSocket{prompt.takeClientFd()}, 0ms,
                                    "test netlink");
    EXPECT_TRUE(requestMarkers(impatient, NLM_F_REQUEST, out).empty());
    EXPECT_EQ(out.end, sdk::NetlinkEnd::Timeout);
}
