// The netlink message splitter and status reader: one bounds check per header, the errors worded
// once.
#include <nicd/plugin/sdk/netlink_messages.h>

#include <linux/netlink.h>

#include <algorithm>
#include <cstring>

namespace nicd::plugin::sdk {

namespace {

static_assert(kNetlinkHeader == size_t{NLMSG_HDRLEN});
constexpr size_t kStatusSize = sizeof(int32_t);
constexpr size_t kErrorSize = kStatusSize + kNetlinkHeader; // struct nlmsgerr
constexpr int32_t kMaxErrno = 4095;                         // the kernel's MAX_ERRNO

template <class T> T load(std::span<const uint8_t> bytes, size_t offset)
{
    T value;
    std::memcpy(&value, bytes.data() + offset, sizeof value);
    return value;
}

// NLMSGERR_ATTR_MSG from the TLVs at `at` of the message, when they are there and well formed.
std::string extackAt(std::span<const uint8_t> message, size_t at)
{
    if (at > message.size())
        return {};
    try {
        for (const NetlinkAttr& a : NetlinkAttrs(message.subspan(at), "extack", at))
            if (a.type == NLMSGERR_ATTR_MSG)
                return std::string(a.string());
    } catch (const DecodeError&) {
        // A malformed extack must not hide the errno it came with.
    }
    return {};
}

} // namespace

NetlinkMessages::iterator& NetlinkMessages::iterator::operator++()
{
    const std::span<const uint8_t> bytes = owner_->bytes_;
    const size_t left = next_ < bytes.size() ? bytes.size() - next_ : 0;
    if (left < kNetlinkHeader) { // the end, or a tail no message fits in
        if (left > 0 && owner_->tail_ == NetlinkTail::Rejected)
            throw DecodeError(std::string(owner_->where_) + ": message at offset " +
                              std::to_string(next_) + ": truncated header (" +
                              std::to_string(left) + " bytes left)");
        owner_ = nullptr;
        return *this;
    }
    const auto rest = bytes.subspan(next_);
    const auto len = load<uint32_t>(rest, 0);
    if (len < kNetlinkHeader || len > left)
        throw DecodeError(std::string(owner_->where_) + ": message at offset " +
                          std::to_string(next_) + " has length " + std::to_string(len) +
                          (len < kNetlinkHeader ? std::string(", shorter than its header")
                                                : " (" + std::to_string(left) + " bytes left)"));
    message_ = {load<uint16_t>(rest, 4),
                load<uint16_t>(rest, 6),
                load<uint32_t>(rest, 8),
                load<uint32_t>(rest, 12),
                next_,
                rest.first(len)};
    next_ += std::min<size_t>(netlinkAlign(len), left);
    return *this;
}

NetlinkMessage firstMessage(std::span<const uint8_t> bytes, std::string_view where)
{
    if (bytes.size() < kNetlinkHeader)
        throw DecodeError(std::string(where) + " of " + std::to_string(bytes.size()) +
                          " bytes is shorter than a netlink header");
    return *NetlinkMessages(bytes, where).begin();
}

NetlinkStatus decodeNetlinkStatus(const NetlinkMessage& m, std::string_view where)
{
    const std::string w(where);
    const size_t size = m.bytes.size();
    size_t tlvs = kNetlinkHeader + kStatusSize;
    if (m.type == NLMSG_ERROR) {
        if (size < kNetlinkHeader + kErrorSize)
            throw DecodeError(w + ": NLMSG_ERROR of " + std::to_string(size) +
                              " bytes is too short for struct nlmsgerr");
        // The request comes back after the status: its header alone (NLM_F_CAPPED) or all of it.
        size_t embedded = kNetlinkHeader;
        if (!(m.flags & NLM_F_CAPPED))
            embedded = load<uint32_t>(m.bytes, kNetlinkHeader + kStatusSize);
        tlvs = embedded < kNetlinkHeader ? size + 1 : tlvs + netlinkAlign(embedded);
    } else if (m.type == NLMSG_DONE) {
        if (size < kNetlinkHeader + kStatusSize)
            throw DecodeError(w + ": NLMSG_DONE of " + std::to_string(size) +
                              " bytes has no status");
    } else {
        throw DecodeError(w + ": message of type " + std::to_string(m.type) + " carries no status");
    }
    const auto status = load<int32_t>(m.bytes, kNetlinkHeader);
    if (status > 0 || status < -kMaxErrno)
        throw DecodeError(w + ": " + (m.type == NLMSG_ERROR ? "NLMSG_ERROR" : "NLMSG_DONE") +
                          " with status " + std::to_string(status) + ", not 0 or a negative errno");
    NetlinkStatus out;
    out.error = -status;
    if (m.flags & NLM_F_ACK_TLVS)
        out.extack = extackAt(m.bytes, tlvs);
    return out;
}

} // namespace nicd::plugin::sdk
