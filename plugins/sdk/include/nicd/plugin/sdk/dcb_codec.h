// rtnetlink DCB (dcbnl) messages as bytes: the IEEE_GET/IEEE_SET/IEEE_DEL requests nicd sends and
// the kernel's replies to them. Pure: no sockets, no I/O. Layouts are the uapi ones
// (linux/netlink.h, linux/dcbnl.h) in host byte order; see shared/reference/qos-provisioning.md §1.
// Every length in a reply is checked (attributes with the SDK's reader): a decoder throws
// plugin::sdk::DecodeError on malformed input, never reads past the end.
#pragma once

#include <nicd/plugin/sdk/netlink_attrs.h>

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace nicd::plugin::sdk::dcb {

// The uapi values, spelled out so the SDK's header does not bring the kernel's macros into every
// plugin, and because older <linux/dcbnl.h> lack kAppDcb and kSelectorPcp (DCB_ATTR_DCB_APP,
// DCB_APP_SEL_PCP); dcb_codec.cpp checks the others against the uapi names.
inline constexpr uint16_t kRtmGetDcb = 78;
inline constexpr uint16_t kRtmSetDcb = 79;

inline constexpr uint8_t kCmdIeeeSet = 20;
inline constexpr uint8_t kCmdIeeeGet = 21;
inline constexpr uint8_t kCmdIeeeDel = 27;

inline constexpr uint16_t kAttrIfname = 1;
inline constexpr uint16_t kAttrIeee = 13;
inline constexpr uint16_t kAttrDcbx = 14;

inline constexpr uint16_t kIeeeEts = 1;
inline constexpr uint16_t kIeeePfc = 2;
inline constexpr uint16_t kIeeeAppTable = 3;

inline constexpr uint16_t kAppIeee = 1; // struct dcb_app, selectors 1..5
inline constexpr uint16_t kAppDcb = 2;  // struct dcb_app, selector 255 (PCP)

inline constexpr uint8_t kSelectorDscp = 5;
inline constexpr uint8_t kSelectorPcp = 255;

inline constexpr uint16_t kNlaNested = 0x8000;
inline constexpr uint16_t kNlmFRequest = 0x01;
inline constexpr uint16_t kNlmFAck = 0x04;

inline constexpr size_t kDcbmsgSize = 4; // sizeof(struct dcbmsg): family, cmd, pad
inline constexpr size_t kIfnameMax = 15; // IFNAMSIZ - 1
inline constexpr size_t kEtsSize = 59;   // sizeof(struct ieee_ets)
inline constexpr size_t kPfcSize = 136;  // sizeof(struct ieee_pfc)
inline constexpr size_t kAppSize = 4;    // sizeof(struct dcb_app)

inline constexpr uint8_t kTsaStrict = 0; // IEEE_8021QAZ_TSA_STRICT
inline constexpr uint8_t kTsaEts = 2;    // IEEE_8021QAZ_TSA_ETS

// struct ieee_ets, field by field: bytes, each array one entry per traffic class (tx_bw, rx_bw,
// tsa, reco_*) or per priority (prio_tc, reco_prio_tc).
struct Ets {
    uint8_t willing = 0;
    uint8_t cap = 0; // ets_cap: the number of traffic classes the port has
    uint8_t cbs = 0;
    std::array<uint8_t, 8> tx_bw{};
    std::array<uint8_t, 8> rx_bw{};
    std::array<uint8_t, 8> tsa{};
    std::array<uint8_t, 8> prio_tc{};
    std::array<uint8_t, 8> reco_bw{};
    std::array<uint8_t, 8> reco_tsa{};
    std::array<uint8_t, 8> reco_prio_tc{};
    bool operator==(const Ets&) const = default;
};

// No class mapping, selection or bandwidth (prio_tc, tsa, tx_bw all 0): what bnxt reports on a
// host-owned port until ETS is set (bnxt_dcb.c bnxt_dcbnl_ieee_getets fills ets_cap alone).
bool etsUnset(const Ets& ets);

// struct ieee_pfc, field by field (padding is zero on the wire).
struct Pfc {
    uint8_t cap = 0;
    uint8_t enabled = 0; // bit i: PFC on priority i
    uint8_t mbc = 0;
    uint16_t delay = 0; // mlx5: cable length in metres
    std::array<uint64_t, 8> requests{};
    std::array<uint64_t, 8> indications{};
    bool operator==(const Pfc&) const = default;
};

// struct dcb_app. For the DSCP selector, protocol is the DSCP value (0..63).
struct App {
    uint8_t selector = 0;
    uint8_t priority = 0;
    uint16_t protocol = 0;
    bool operator==(const App&) const = default;
    // By selector, then protocol (the DSCP value), then priority.
    bool operator<(const App& o) const
    {
        return std::tie(selector, protocol, priority) <
               std::tie(o.selector, o.protocol, o.priority);
    }
};

// A netdev's IEEE DCB state as an IEEE_GET reply reports it (only what nicd uses).
struct DcbState {
    std::string ifname;
    std::optional<Ets> ets; // absent when the driver has no getets
    std::optional<Pfc> pfc; // absent when the driver has no getpfc
    std::vector<App> apps;  // the APP table, in reply order
    std::optional<uint8_t> dcbx;
    bool operator==(const DcbState&) const = default;
};

// The outcome of one request as its reply messages tell it. `error` is a positive errno: from an
// NLMSG_ERROR (the request was refused before the driver saw it) or, for SET/DEL, from the status
// byte of a successful reply (`in_band`: the driver or DCB core refused it). 0: success.
struct GetReply {
    int error = 0;
    DcbState state; // valid when error == 0
};

struct SetReply {
    int error = 0;
    bool in_band = false;
};

// Requests: NLM_F_REQUEST|NLM_F_ACK, nlmsg_pid 0, NLA_F_NESTED on nests (as iproute2's `dcb`).
// The name must be 1..15 bytes; longer names are an error the caller checks with validIfname().
bool validIfname(std::string_view ifname);
std::vector<uint8_t> encodeIeeeGet(std::string_view ifname, uint32_t seq);
// IEEE nest with PFC (when given) and an APP_TABLE (when `apps` is not empty).
std::vector<uint8_t> encodeIeeeSet(std::string_view ifname, uint32_t seq,
                                   const std::optional<Pfc>& pfc, std::span<const App> apps);
// IEEE nest with ETS alone (a driver such as bnxt takes PFC only once ETS is set).
std::vector<uint8_t> encodeIeeeSetEts(std::string_view ifname, uint32_t seq, const Ets& ets);
std::vector<uint8_t> encodeIeeeDel(std::string_view ifname, uint32_t seq,
                                   std::span<const App> apps);

std::array<uint8_t, kEtsSize> encodeEts(const Ets& ets);
Ets decodeEts(std::span<const uint8_t> payload);
std::array<uint8_t, kPfcSize> encodePfc(const Pfc& pfc);
Pfc decodePfc(std::span<const uint8_t> payload);

// The payload (what follows the nlmsghdr) of one reply message: RTM_GETDCB for IEEE_GET, the
// netdev's DCB state; RTM_SETDCB for IEEE_SET/IEEE_DEL (`cmd`), the status byte. What DcbClient
// hands NetlinkRequester to decode; each throws DecodeError on bytes it cannot trust.
DcbState decodeGetPayload(std::span<const uint8_t> payload);
SetReply decodeSetPayload(std::span<const uint8_t> payload, uint8_t cmd);

// A whole reply at once (whole messages: one datagram, or several concatenated), as the tests and
// the fuzzer hold it; the messages are split with NetlinkTail::Rejected.
// True when `bytes` hold the NLMSG_ERROR that ends the reply to request `seq` (the ACK or the
// error).
bool replyComplete(std::span<const uint8_t> bytes, uint32_t seq);
// Messages with another sequence number are ignored. Each throws DecodeError on bytes it cannot
// trust (a length past the end, a reply without its status, no reply for `seq`).
GetReply decodeGetReply(std::span<const uint8_t> bytes, uint32_t seq);
SetReply decodeSetReply(std::span<const uint8_t> bytes, uint32_t seq, uint8_t cmd);

} // namespace nicd::plugin::sdk::dcb
