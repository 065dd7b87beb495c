// EthtoolNetlink's requests: the family looked up (plugin::sdk::resolveGenlFamily), each request
// built with libnl-genl-3 and sent over the SDK's NetlinkRequester, which numbers it and reads its
// answer; each reply message's payload is taken by ethtool_detail::absorbReply. What to ask and how
// the answers read: ethtool_reads.cpp. Facts: shared/reference/pre-failure.md §1 and §3.1.
#include "prefailure/ethtool_netlink.hpp"

#include "prefailure/decode_error.hpp"
#include "prefailure/ethtool_request.hpp"

#include <nicd/plugin/sdk/genl_family.h>

#include <fmt/format.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include <cerrno>
#include <memory>
#include <system_error>

namespace nicd::prefailure {

namespace {

using ethtool_detail::Outcome;
using ethtool_detail::Request;
using plugin::sdk::NetlinkEnd;
using plugin::sdk::NetlinkOutcome;
using EthtoolMessage = std::unique_ptr<nl_msg, decltype(&nlmsg_free)>;

std::string ethtoolErrnoText(int error)
{
    return fmt::format("{} (errno {})", std::generic_category().message(error), error);
}

// Netlink or generic netlink is not there (or not for us): not an error to report loudly.
bool socketUnsupported(const NetlinkOutcome& out)
{
    return out.end == NetlinkEnd::NoSocket &&
           (out.error == EPERM || out.error == EACCES || out.error == EAFNOSUPPORT ||
            out.error == EPROTONOSUPPORT);
}

// Why the requester got no answer, in ethtool's words.
std::string unansweredWhy(const NetlinkOutcome& out)
{
    if (out.end == NetlinkEnd::Timeout)
        return "no answer from the kernel before the timeout";
    return out.why;
}

std::string buildRequest(nl_msg* msg, const Request& request, int family)
{
    if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, family, 0, NLM_F_REQUEST | NLM_F_ACK,
                     request.cmd, request.version))
        return "cannot build the generic netlink header";
    int rc = 0;
    if (request.header_attr != 0) {
        nlattr* header = nla_nest_start(msg, request.header_attr | NLA_F_NESTED);
        if (!header)
            return "cannot start the header nest";
        rc = nla_put_string(msg, ETHTOOL_A_HEADER_DEV_NAME, request.netdev.c_str());
        if (rc >= 0 && request.header_flags != 0)
            rc = nla_put_u32(msg, ETHTOOL_A_HEADER_FLAGS, request.header_flags);
        if (rc >= 0)
            rc = nla_nest_end(msg, header);
    }
    if (rc >= 0 && request.body)
        rc = request.body(msg);
    if (rc < 0)
        return fmt::format("cannot build the request: {}", nl_geterror(rc));
    return {};
}

} // namespace

EthtoolNetlink::EthtoolNetlink(std::chrono::milliseconds timeout)
    : requester_(NETLINK_GENERIC, timeout, "ethtool netlink")
{
}

EthtoolNetlink::~EthtoolNetlink() = default;

std::string EthtoolNetlink::lookUpFamily(bool& unsupported)
{
    uint16_t id = 0;
    const NetlinkOutcome found = plugin::sdk::resolveGenlFamily(requester_, ETHTOOL_GENL_NAME, id);
    const std::string what = fmt::format("generic netlink family \"{}\": ", ETHTOOL_GENL_NAME);
    if (!found.answered()) {
        unsupported = socketUnsupported(found);
        return what + unansweredWhy(found);
    }
    if (found.error == ENOENT) {
        unsupported = true;
        return what + "the kernel has none";
    }
    if (found.error != 0)
        return what + ethtoolErrnoText(found.error);
    family_ = id;
    return {};
}

Outcome EthtoolNetlink::exchange(const Request& request)
{
    Outcome outcome;
    if (family_ < 0) {
        if (std::string why = lookUpFamily(outcome.unsupported); !why.empty()) {
            outcome.failure = why;
            return outcome;
        }
    }
    EthtoolMessage msg(nlmsg_alloc(), &nlmsg_free);
    if (!msg) {
        outcome.failure = "cannot allocate a netlink message";
        return outcome;
    }
    if (std::string why = buildRequest(msg.get(), request, family_); !why.empty()) {
        outcome.failure = why;
        return outcome;
    }
    auto absorb = [&](std::span<const uint8_t> payload) {
        ethtool_detail::absorbReply(payload, request.reply_cmd, outcome.answer);
    };
    const NetlinkOutcome out = requester_.exchange(plugin::sdk::messageBytes(msg.get()),
                                                   static_cast<uint16_t>(family_), absorb);
    if (!out.answered()) {
        outcome.failure = unansweredWhy(out);
        return outcome;
    }
    outcome.answered = true;
    outcome.answer.finished = true;
    outcome.answer.error = out.error;
    outcome.answer.extack = out.extack;
    return outcome;
}

} // namespace nicd::prefailure
