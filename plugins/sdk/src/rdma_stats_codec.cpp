// RDMA netlink hw counters as bytes: requests laid out as the kernel parses them, answers walked
// with the SDK's attribute reader, every length checked before it is used. No socket here.
#include <nicd/plugin/sdk/rdma_stats_codec.h>

#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>

#include <algorithm>
#include <cstring>
#include <optional>

namespace nicd::plugin::sdk {

namespace {

constexpr std::string_view kWhat = "RDMA netlink";

using Attr = NetlinkAttr;

std::string where(const char* what, const Attr& a)
{
    return std::string(what) + " (attribute " + std::to_string(a.type) + " at offset " +
           std::to_string(a.offset) + ")";
}

// A non-empty NUL-terminated string with no other NUL.
std::string_view string(const Attr& a, const char* what)
{
    const auto* chars = reinterpret_cast<const char*>(a.payload.data());
    const size_t n = a.payload.size();
    if (n == 0 || chars[n - 1] != '\0')
        throw DecodeError(where(what, a) + ": not a NUL-terminated string");
    const std::string_view text(chars, n - 1);
    if (text.empty() || text.find('\0') != std::string_view::npos)
        throw DecodeError(where(what, a) + ": an empty name or one with a NUL inside");
    return text;
}

// Sets `slot` once; an attribute the decoder uses may not appear twice.
template <class T> void once(std::optional<T>& slot, T value, const Attr& a, const char* what)
{
    if (slot)
        throw DecodeError(where(what, a) + ": appears twice");
    slot = value;
}

void decodeEntry(const Attr& entry, RdmaHwCounters& counters)
{
    std::optional<std::string_view> name;
    std::optional<uint64_t> value;
    for (const Attr& a : NetlinkAttrs(entry.payload, kWhat, entry.payloadOffset())) {
        if (a.type == RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME)
            once(name, string(a, "hw counter name"), a, "hw counter name");
        else if (a.type == RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE)
            once(value, a.u64("hw counter value"), a, "hw counter value");
    }
    if (!name || !value)
        throw DecodeError(where("hw counter entry", entry) + ": no " + (name ? "value" : "name"));
    if (name->find('/') != std::string_view::npos)
        throw DecodeError(where("hw counter entry", entry) + ": name '" + std::string(*name) +
                          "' has a '/'");
    counters.add(*name, *value);
}

} // namespace

void RdmaHwCounters::clear()
{
    names_.clear();
    entries_.clear();
}

void RdmaHwCounters::add(std::string_view name, uint64_t value)
{
    entries_.push_back(
        {static_cast<uint32_t>(names_.size()), static_cast<uint32_t>(name.size()), value});
    names_.append(name);
}

void RdmaHwCounters::sortByName()
{
    auto nameOf = [this](const Entry& e) {
        return std::string_view(names_).substr(e.offset, e.length);
    };
    std::sort(entries_.begin(), entries_.end(),
              [&](const Entry& a, const Entry& b) { return nameOf(a) < nameOf(b); });
    auto twice =
        std::adjacent_find(entries_.begin(), entries_.end(),
                           [&](const Entry& a, const Entry& b) { return nameOf(a) == nameOf(b); });
    if (twice != entries_.end())
        throw DecodeError("hw counter '" + std::string(nameOf(*twice)) + "' appears twice");
}

uint16_t rdmaNldevType(uint8_t cmd)
{
    return static_cast<uint16_t>(RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, cmd));
}

namespace {

void putHeader(std::vector<uint8_t>& out, uint16_t type, uint16_t flags, uint32_t seq)
{
    nlmsghdr h{};
    h.nlmsg_len = static_cast<uint32_t>(out.size());
    h.nlmsg_type = type;
    h.nlmsg_flags = flags;
    h.nlmsg_seq = seq;
    std::memcpy(out.data(), &h, sizeof h);
}

void putU32(std::vector<uint8_t>& out, uint16_t type, uint32_t value)
{
    nlattr a{};
    a.nla_len = NLA_HDRLEN + sizeof value;
    a.nla_type = type;
    const size_t at = out.size();
    out.resize(at + NLA_ALIGN(a.nla_len));
    std::memcpy(out.data() + at, &a, sizeof a);
    std::memcpy(out.data() + at + NLA_HDRLEN, &value, sizeof value);
}

} // namespace

void buildStatGetRequest(uint32_t seq, uint32_t dev_index, uint32_t port, std::vector<uint8_t>& out)
{
    out.assign(NLMSG_HDRLEN, 0);
    putU32(out, RDMA_NLDEV_ATTR_DEV_INDEX, dev_index);
    putU32(out, RDMA_NLDEV_ATTR_PORT_INDEX, port);
    putHeader(out, rdmaNldevType(RDMA_NLDEV_CMD_STAT_GET), NLM_F_REQUEST, seq);
}

void buildDeviceDumpRequest(uint32_t seq, std::vector<uint8_t>& out)
{
    out.assign(NLMSG_HDRLEN, 0);
    putHeader(out, rdmaNldevType(RDMA_NLDEV_CMD_GET), NLM_F_REQUEST | NLM_F_DUMP, seq);
}

RdmaStatHeader decodeStatGetReply(std::span<const uint8_t> attrs, RdmaHwCounters& counters)
{
    counters.clear();
    std::optional<uint32_t> index, port;
    std::optional<std::string_view> name;
    bool table = false;
    for (const Attr& a : NetlinkAttrs(attrs, kWhat)) {
        switch (a.type) {
        case RDMA_NLDEV_ATTR_DEV_INDEX:
            once(index, a.u32("device index"), a, "device index");
            break;
        case RDMA_NLDEV_ATTR_DEV_NAME:
            once(name, string(a, "device name"), a, "device name");
            break;
        case RDMA_NLDEV_ATTR_PORT_INDEX:
            once(port, a.u32("port index"), a, "port index");
            break;
        case RDMA_NLDEV_ATTR_STAT_HWCOUNTERS:
            if (table)
                throw DecodeError(where("hw counter table", a) + ": appears twice");
            table = true;
            for (const Attr& entry : NetlinkAttrs(a.payload, kWhat, a.payloadOffset()))
                if (entry.type == RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY)
                    decodeEntry(entry, counters);
            break;
        default:
            break; // padding, or what a later kernel adds
        }
    }
    if (!index || !name || !port || !table)
        throw DecodeError(std::string("RDMA netlink STAT_GET reply without its ") +
                          (!index  ? "device index"
                           : !name ? "device name"
                           : !port ? "port index"
                                   : "hw counter table"));
    counters.sortByName();
    return {*index, *name, *port};
}

RdmaDevice decodeDeviceMessage(std::span<const uint8_t> attrs)
{
    std::optional<uint32_t> index;
    std::optional<std::string_view> name;
    for (const Attr& a : NetlinkAttrs(attrs, kWhat)) {
        if (a.type == RDMA_NLDEV_ATTR_DEV_INDEX)
            once(index, a.u32("device index"), a, "device index");
        else if (a.type == RDMA_NLDEV_ATTR_DEV_NAME)
            once(name, string(a, "device name"), a, "device name");
    }
    if (!index || !name)
        throw DecodeError(std::string("RDMA netlink device message without its ") +
                          (!index ? "device index" : "device name"));
    return {*index, std::string(*name)};
}

void absorbRdmaDatagram(std::span<const uint8_t> datagram, uint32_t seq, uint16_t type, bool dump,
                        RdmaAnswer& answer)
{
    absorbNetlinkDatagram(datagram, seq, type, dump ? NetlinkReplies::Dump : NetlinkReplies::One,
                          answer, kWhat);
}

} // namespace nicd::plugin::sdk
