// Generic netlink family lookup (CTRL_CMD_GETFAMILY) over NetlinkRequester, its reply read with
// NetlinkAttrs; the request built with libnl-genl-3.
#include <nicd/plugin/sdk/genl_family.h>

#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include <cerrno>
#include <memory>
#include <optional>
#include <string>

namespace nicd::plugin::sdk {

namespace {

constexpr uint8_t kGenlCtrlVersion = 1;
constexpr std::string_view kCtrlWhere = "CTRL_CMD_NEWFAMILY reply";

// CTRL_ATTR_FAMILY_ID of a CTRL_CMD_NEWFAMILY payload, when it has one.
std::optional<uint16_t> familyIdIn(std::span<const uint8_t> payload)
{
    const GenlPayload genl = splitGenl(payload, kCtrlWhere);
    if (genl.cmd != CTRL_CMD_NEWFAMILY)
        throw DecodeError(std::string(kCtrlWhere) + ": command " + std::to_string(genl.cmd) +
                          ", expected " + std::to_string(CTRL_CMD_NEWFAMILY));
    for (const NetlinkAttr& a : NetlinkAttrs(genl.attrs, kCtrlWhere))
        if (a.type == CTRL_ATTR_FAMILY_ID)
            return a.u16("CTRL_ATTR_FAMILY_ID");
    return std::nullopt;
}

NetlinkOutcome genlFailure(NetlinkEnd end, std::string why, int error)
{
    NetlinkOutcome out;
    out.end = end;
    out.why = std::move(why);
    out.error = error;
    return out;
}

} // namespace

std::span<uint8_t> messageBytes(nl_msg* msg)
{
    nlmsghdr* h = nlmsg_hdr(msg);
    return {reinterpret_cast<uint8_t*>(h), h->nlmsg_len};
}

NetlinkOutcome resolveGenlFamily(NetlinkRequester& requester, const char* name, uint16_t& id)
{
    std::unique_ptr<nl_msg, decltype(&nlmsg_free)> msg(nlmsg_alloc(), &nlmsg_free);
    if (!msg ||
        !genlmsg_put(msg.get(), NL_AUTO_PORT, NL_AUTO_SEQ, GENL_ID_CTRL, 0,
                     NLM_F_REQUEST | NLM_F_ACK, CTRL_CMD_GETFAMILY, kGenlCtrlVersion) ||
        nla_put_string(msg.get(), CTRL_ATTR_FAMILY_NAME, name) < 0)
        return genlFailure(NetlinkEnd::SendFailed, "cannot build CTRL_CMD_GETFAMILY", ENOMEM);
    std::optional<uint16_t> found;
    auto decode = [&](std::span<const uint8_t> payload) { found = familyIdIn(payload); };
    NetlinkOutcome out = requester.exchange(messageBytes(msg.get()), GENL_ID_CTRL, decode);
    if (!out.ok())
        return out;
    if (!found)
        return genlFailure(NetlinkEnd::Malformed, "the lookup reply carries no family id", EBADMSG);
    id = *found;
    return out;
}

} // namespace nicd::plugin::sdk
