// The one matcher of a request's answer: sequence numbers, the end of a reply, ack or dump, and
// the status with its extended ack (decodeNetlinkStatus). No socket here.
#include <nicd/plugin/sdk/netlink_answer.h>

#include <linux/netlink.h>

namespace nicd::plugin::sdk {

namespace {

// One message of the request: its status, or one of its replies.
void absorbAnswerMessage(const NetlinkMessage& m, uint16_t reply_type, NetlinkReplies replies,
                         NetlinkAnswer& answer, std::string_view where)
{
    if (m.type == NLMSG_ERROR || m.type == NLMSG_DONE) {
        auto status = decodeNetlinkStatus(m, where);
        answer.error = status.error;
        answer.extack = std::move(status.extack);
        answer.finished = true;
    } else if (m.type == reply_type) {
        answer.messages.push_back(m.payload());
        answer.interrupted = answer.interrupted || (m.flags & NLM_F_DUMP_INTR) != 0;
        answer.finished = replies == NetlinkReplies::One;
    } else {
        throw DecodeError(std::string(where) + " message at offset " + std::to_string(m.offset) +
                          " has type " + std::to_string(m.type) + ", expected " +
                          std::to_string(reply_type));
    }
}

} // namespace

NetlinkReplies repliesOf(uint16_t request_flags)
{
    if ((request_flags & NLM_F_DUMP) == NLM_F_DUMP)
        return NetlinkReplies::Dump;
    return (request_flags & NLM_F_ACK) != 0 ? NetlinkReplies::OneThenAck : NetlinkReplies::One;
}

void absorbNetlinkDatagram(std::span<const uint8_t> datagram, uint32_t seq, uint16_t reply_type,
                           NetlinkReplies replies, NetlinkAnswer& answer, std::string_view where,
                           NetlinkTail tail)
{
    answer.messages.clear();
    const NetlinkMessages messages(datagram, where, tail);
    for (auto it = messages.begin(); it != messages.end(); ++it) {
        const NetlinkMessage& m = *it;
        if (m.seq == seq && m.type != NLMSG_NOOP)
            absorbAnswerMessage(m, reply_type, replies, answer, where);
        if (answer.finished)
            break;
    }
}

} // namespace nicd::plugin::sdk
