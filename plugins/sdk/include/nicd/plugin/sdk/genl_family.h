// Generic netlink over the SDK's NetlinkRequester: a family's id looked up by name
// (CTRL_CMD_GETFAMILY to the controller) and the bytes of a request built with libnl-genl-3
// (nl_msg, genlmsg_put, nla_put_*: the project keeps libnl for building requests) to hand to the
// requester.
//
// Why the lookup is not libnl's genl_ctrl_resolve(): it wants an nl_sock of its own (a second
// socket beside the requester's) and answers a timeout or any other failure as "not found"; here
// only ENOENT means the kernel has no such family, and a timeout is a timeout.
#pragma once

#include <nicd/plugin/sdk/genl_payload.h>
#include <nicd/plugin/sdk/netlink_requester.h>

#include <cstdint>
#include <span>

struct nl_msg;

namespace nicd::plugin::sdk {

// The id of the generic netlink family `name` (ETHTOOL_GENL_NAME, DEVLINK_GENL_NAME) into `id`,
// asked over `requester` (a NETLINK_GENERIC one). The outcome is the requester's: Answered with
// ENOENT when the kernel has no such family; Malformed when its reply carries no id.
NetlinkOutcome resolveGenlFamily(NetlinkRequester& requester, const char* name, uint16_t& id);

// The whole message libnl built (nlmsg_hdr(msg), nlmsg_len bytes), for NetlinkRequester::exchange.
std::span<uint8_t> messageBytes(nl_msg* msg);

} // namespace nicd::plugin::sdk
