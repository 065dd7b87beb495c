#include <nicd/plugin/sdk/dcb_codec.h>
#include <nicd/plugin/sdk/netlink_messages.h>

#include <linux/dcbnl.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <net/if.h>

#include <algorithm>
#include <cstring>
#include <string>

namespace nicd::plugin::sdk::dcb {

using plugin::sdk::DecodeError;

namespace {

constexpr size_t kNlmsgHeader = kNetlinkHeader; // struct nlmsghdr
constexpr uint16_t kNlmsgError = NLMSG_ERROR;

static_assert(kNetlinkAttrHeader == size_t{NLA_HDRLEN});
static_assert(kRtmGetDcb == RTM_GETDCB && kRtmSetDcb == RTM_SETDCB);
static_assert(kCmdIeeeSet == DCB_CMD_IEEE_SET && kCmdIeeeGet == DCB_CMD_IEEE_GET &&
              kCmdIeeeDel == DCB_CMD_IEEE_DEL);
static_assert(kAttrIfname == DCB_ATTR_IFNAME && kAttrIeee == DCB_ATTR_IEEE &&
              kAttrDcbx == DCB_ATTR_DCBX);
static_assert(kIeeeEts == DCB_ATTR_IEEE_ETS && kIeeePfc == DCB_ATTR_IEEE_PFC &&
              kIeeeAppTable == DCB_ATTR_IEEE_APP_TABLE && kAppIeee == DCB_ATTR_IEEE_APP);
static_assert(kSelectorDscp == IEEE_8021QAZ_APP_SEL_DSCP && kTsaStrict == IEEE_8021QAZ_TSA_STRICT &&
              kTsaEts == IEEE_8021QAZ_TSA_ETS);
static_assert(kNlaNested == NLA_F_NESTED && kNlmFRequest == NLM_F_REQUEST && kNlmFAck == NLM_F_ACK);
static_assert(kDcbmsgSize == sizeof(struct dcbmsg) && kIfnameMax == size_t{IFNAMSIZ - 1});
static_assert(kEtsSize == sizeof(struct ieee_ets) && kPfcSize == sizeof(struct ieee_pfc) &&
              kAppSize == sizeof(struct dcb_app));

constexpr size_t align4(size_t n)
{
    return (n + 3) & ~size_t{3};
}

template <class T> T load(std::span<const uint8_t> bytes, size_t offset)
{
    T v;
    std::memcpy(&v, bytes.data() + offset, sizeof v);
    return v;
}

template <class T> void store(uint8_t* to, T v)
{
    std::memcpy(to, &v, sizeof v);
}

// Builds one netlink message: header, dcbmsg, then attributes and nests.
class MessageWriter {
public:
    MessageWriter(uint16_t type, uint8_t cmd, uint32_t seq)
    {
        bytes_.resize(kNlmsgHeader + kDcbmsgSize, 0);
        store<uint16_t>(&bytes_[4], type);
        store<uint16_t>(&bytes_[6], kNlmFRequest | kNlmFAck);
        store<uint32_t>(&bytes_[8], seq);
        bytes_[kNlmsgHeader + 1] = cmd; // family AF_UNSPEC, pad 0
    }

    void attr(uint16_t type, std::span<const uint8_t> payload)
    {
        size_t at = begin(type);
        bytes_.insert(bytes_.end(), payload.begin(), payload.end());
        end(at);
    }

    void stringz(uint16_t type, std::string_view s)
    {
        std::vector<uint8_t> payload(s.begin(), s.end());
        payload.push_back(0);
        attr(type, payload);
    }

    size_t begin(uint16_t type)
    {
        size_t at = bytes_.size();
        bytes_.resize(at + kNetlinkAttrHeader, 0);
        store<uint16_t>(&bytes_[at + 2], type);
        return at;
    }

    // nla_len covers the header and payload but not the trailing padding, which follows.
    void end(size_t at)
    {
        store<uint16_t>(&bytes_[at], static_cast<uint16_t>(bytes_.size() - at));
        bytes_.resize(align4(bytes_.size()), 0);
    }

    std::vector<uint8_t> finish()
    {
        store<uint32_t>(&bytes_[0], static_cast<uint32_t>(bytes_.size()));
        return std::move(bytes_);
    }

private:
    std::vector<uint8_t> bytes_;
};

void appTable(MessageWriter& w, std::span<const App> apps)
{
    size_t table = w.begin(kIeeeAppTable | kNlaNested);
    for (const auto& a : apps) {
        std::array<uint8_t, kAppSize> entry{a.selector, a.priority, 0, 0};
        store<uint16_t>(&entry[2], a.protocol);
        w.attr(a.selector == kSelectorPcp ? kAppDcb : kAppIeee, entry);
    }
    w.end(table);
}

using Attr = plugin::sdk::NetlinkAttr;
using plugin::sdk::NetlinkAttrs;

using Message = plugin::sdk::NetlinkMessage;
// The DCB client looks for the end of a reply in each datagram as it comes: a cut one must be an
// error, not a reason to wait for more.
constexpr auto kCutIsAnError = plugin::sdk::NetlinkTail::Rejected;

// The errno an NLMSG_ERROR carries: 0 for an ACK, positive otherwise.
int errorOf(const Message& m)
{
    return plugin::sdk::decodeNetlinkStatus(m, "DCB reply").error;
}

// The attributes after the dcbmsg of a DCB reply's payload (read with NetlinkAttrs).
std::span<const uint8_t> dcbAttrs(std::span<const uint8_t> payload, uint8_t want_cmd)
{
    if (payload.size() < kDcbmsgSize)
        throw DecodeError("DCB reply shorter than struct dcbmsg");
    if (payload[1] != want_cmd)
        throw DecodeError("DCB reply for command " + std::to_string(payload[1]) + ", expected " +
                          std::to_string(want_cmd));
    return payload.subspan(kDcbmsgSize);
}

std::vector<App> decodeAppTable(std::span<const uint8_t> bytes)
{
    std::vector<App> out;
    for (const Attr& a : NetlinkAttrs(bytes, "APP table")) {
        if (a.type != kAppIeee && a.type != kAppDcb)
            continue; // the kernel skips other types too
        if (a.payload.size() < kAppSize)
            throw DecodeError("APP entry of " + std::to_string(a.payload.size()) + " bytes, want " +
                              std::to_string(kAppSize));
        out.push_back({a.payload[0], a.payload[1], load<uint16_t>(a.payload, 2)});
    }
    return out;
}

DcbState decodeState(std::span<const uint8_t> attrs)
{
    DcbState st;
    bool have_ieee = false;
    for (const Attr& a : NetlinkAttrs(attrs, "DCB reply")) {
        if (a.type == kAttrIfname) {
            st.ifname = std::string(a.string());
        } else if (a.type == kAttrDcbx) {
            if (a.payload.empty())
                throw DecodeError("DCBX attribute is empty");
            st.dcbx = a.payload[0];
        } else if (a.type == kAttrIeee) {
            have_ieee = true;
            for (const Attr& n : NetlinkAttrs(a.payload, "IEEE nest", a.payloadOffset())) {
                if (n.type == kIeeeEts)
                    st.ets = decodeEts(n.payload);
                else if (n.type == kIeeePfc)
                    st.pfc = decodePfc(n.payload);
                else if (n.type == kIeeeAppTable)
                    st.apps = decodeAppTable(n.payload);
            }
        }
    }
    if (!have_ieee)
        throw DecodeError("IEEE_GET reply has no DCB_ATTR_IEEE");
    return st;
}

} // namespace

bool validIfname(std::string_view ifname)
{
    return !ifname.empty() && ifname.size() <= kIfnameMax &&
           ifname.find('\0') == std::string_view::npos;
}

std::vector<uint8_t> encodeIeeeGet(std::string_view ifname, uint32_t seq)
{
    MessageWriter w(kRtmGetDcb, kCmdIeeeGet, seq);
    w.stringz(kAttrIfname, ifname);
    return w.finish();
}

std::vector<uint8_t> encodeIeeeSet(std::string_view ifname, uint32_t seq,
                                   const std::optional<Pfc>& pfc, std::span<const App> apps)
{
    MessageWriter w(kRtmSetDcb, kCmdIeeeSet, seq);
    w.stringz(kAttrIfname, ifname);
    size_t ieee = w.begin(kAttrIeee | kNlaNested);
    if (pfc)
        w.attr(kIeeePfc, encodePfc(*pfc));
    if (!apps.empty())
        appTable(w, apps);
    w.end(ieee);
    return w.finish();
}

std::vector<uint8_t> encodeIeeeSetEts(std::string_view ifname, uint32_t seq, const Ets& ets)
{
    MessageWriter w(kRtmSetDcb, kCmdIeeeSet, seq);
    w.stringz(kAttrIfname, ifname);
    size_t ieee = w.begin(kAttrIeee | kNlaNested);
    w.attr(kIeeeEts, encodeEts(ets));
    w.end(ieee);
    return w.finish();
}

std::vector<uint8_t> encodeIeeeDel(std::string_view ifname, uint32_t seq, std::span<const App> apps)
{
    MessageWriter w(kRtmSetDcb, kCmdIeeeDel, seq);
    w.stringz(kAttrIfname, ifname);
    size_t ieee = w.begin(kAttrIeee | kNlaNested);
    appTable(w, apps);
    w.end(ieee);
    return w.finish();
}

namespace {

// The kernel accepts longer payloads and reads the struct's size; so do we.
void requireStruct(std::span<const uint8_t> payload, size_t size, const char* what)
{
    if (payload.size() < size)
        throw DecodeError(std::string(what) + " attribute of " + std::to_string(payload.size()) +
                          " bytes, want " + std::to_string(size));
}

// struct ieee_ets is bytes only, in this order: willing, ets_cap, cbs, then the arrays.
template <class E> auto etsBytes(E& ets)
{
    return std::array{&ets.willing, &ets.cap, &ets.cbs};
}
template <class E> auto etsArrays(E& ets)
{
    return std::array{&ets.tx_bw,   &ets.rx_bw,    &ets.tsa,         &ets.prio_tc,
                      &ets.reco_bw, &ets.reco_tsa, &ets.reco_prio_tc};
}

} // namespace

bool etsUnset(const Ets& ets)
{
    auto zero = [](const std::array<uint8_t, 8>& a) {
        return std::all_of(a.begin(), a.end(), [](uint8_t v) { return v == 0; });
    };
    return zero(ets.prio_tc) && zero(ets.tsa) && zero(ets.tx_bw);
}

std::array<uint8_t, kEtsSize> encodeEts(const Ets& ets)
{
    std::array<uint8_t, kEtsSize> out{};
    auto to = out.begin();
    for (const auto* b : etsBytes(ets))
        *to++ = *b;
    for (const auto* a : etsArrays(ets))
        to = std::copy(a->begin(), a->end(), to);
    return out;
}

Ets decodeEts(std::span<const uint8_t> payload)
{
    requireStruct(payload, kEtsSize, "ETS");
    Ets ets;
    auto from = payload.begin();
    for (auto* b : etsBytes(ets))
        *b = *from++;
    for (auto* a : etsArrays(ets)) {
        std::copy_n(from, a->size(), a->begin());
        from += static_cast<std::ptrdiff_t>(a->size());
    }
    return ets;
}

std::array<uint8_t, kPfcSize> encodePfc(const Pfc& pfc)
{
    std::array<uint8_t, kPfcSize> out{};
    out[0] = pfc.cap;
    out[1] = pfc.enabled;
    out[2] = pfc.mbc;
    store<uint16_t>(&out[4], pfc.delay);
    for (size_t i = 0; i < 8; ++i) {
        store<uint64_t>(&out[8 + 8 * i], pfc.requests[i]);
        store<uint64_t>(&out[72 + 8 * i], pfc.indications[i]);
    }
    return out;
}

Pfc decodePfc(std::span<const uint8_t> payload)
{
    requireStruct(payload, kPfcSize, "PFC");
    Pfc pfc;
    pfc.cap = payload[0];
    pfc.enabled = payload[1];
    pfc.mbc = payload[2];
    pfc.delay = load<uint16_t>(payload, 4);
    for (size_t i = 0; i < 8; ++i) {
        pfc.requests[i] = load<uint64_t>(payload, 8 + 8 * i);
        pfc.indications[i] = load<uint64_t>(payload, 72 + 8 * i);
    }
    return pfc;
}

bool replyComplete(std::span<const uint8_t> bytes, uint32_t seq)
{
    for (const auto& m : plugin::sdk::NetlinkMessages(bytes, "DCB reply", kCutIsAnError))
        if (m.seq == seq && m.type == kNlmsgError)
            return true;
    return false;
}

DcbState decodeGetPayload(std::span<const uint8_t> payload)
{
    return decodeState(dcbAttrs(payload, kCmdIeeeGet));
}

SetReply decodeSetPayload(std::span<const uint8_t> payload, uint8_t cmd)
{
    std::optional<SetReply> status;
    for (const Attr& a : NetlinkAttrs(dcbAttrs(payload, cmd), "DCB reply")) {
        if (a.type != kAttrIeee)
            continue;
        if (a.payload.size() != 1)
            throw DecodeError("SET/DEL status attribute of " + std::to_string(a.payload.size()) +
                              " bytes, want 1");
        // The errno truncated to 8 bits: read it as int8_t and negate.
        int errnum = -static_cast<int>(static_cast<int8_t>(a.payload[0]));
        if (errnum < 0)
            throw DecodeError("SET/DEL status byte " + std::to_string(a.payload[0]) +
                              " is not a negative errno");
        status = SetReply{errnum, errnum != 0};
    }
    if (!status)
        throw DecodeError("SET/DEL reply has no status attribute");
    return *status;
}

GetReply decodeGetReply(std::span<const uint8_t> bytes, uint32_t seq)
{
    std::optional<DcbState> state;
    for (const auto& m : plugin::sdk::NetlinkMessages(bytes, "DCB reply", kCutIsAnError)) {
        if (m.seq != seq)
            continue;
        if (m.type == kNlmsgError) {
            if (int errnum = errorOf(m); errnum != 0)
                return GetReply{errnum, {}};
        } else if (m.type == kRtmGetDcb) {
            state = decodeGetPayload(m.payload());
        }
    }
    if (!state)
        throw DecodeError("no IEEE_GET reply for sequence " + std::to_string(seq));
    return GetReply{0, std::move(*state)};
}

SetReply decodeSetReply(std::span<const uint8_t> bytes, uint32_t seq, uint8_t cmd)
{
    std::optional<SetReply> status;
    for (const auto& m : plugin::sdk::NetlinkMessages(bytes, "DCB reply", kCutIsAnError)) {
        if (m.seq != seq)
            continue;
        if (m.type == kNlmsgError) {
            if (int errnum = errorOf(m); errnum != 0)
                return SetReply{errnum, false};
        } else if (m.type == kRtmSetDcb) {
            status = decodeSetPayload(m.payload(), cmd);
        }
    }
    if (!status)
        throw DecodeError("no SET/DEL reply for sequence " + std::to_string(seq));
    return *status;
}

} // namespace nicd::plugin::sdk::dcb
