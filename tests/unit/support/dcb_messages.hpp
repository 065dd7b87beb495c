// rtnetlink DCB replies laid out by hand as net/dcb/dcbnl.c sends them, for tests of the plugins'
// DCB code over bytes: dcbnl_ieee_fill's IEEE_GET reply (DCB_ATTR_IFNAME, DCB_ATTR_IEEE nested
// without NLA_F_NESTED: ETS, PFC, APP_TABLE; then DCB_ATTR_DCBX when the driver has getdcbx) and
// dcbnl_ieee_set's one status byte, each followed by the ACK the request asked for.
#pragma once

#include "support/netlink_attrs.hpp"

#include <nicd/plugin/sdk/dcb_codec.h>

#include <optional>
#include <string>
#include <vector>

namespace nicd::test {

namespace dcbwire = ::nicd::plugin::sdk::dcb;

// struct dcbmsg (family AF_UNSPEC, cmd, pad) and the attributes.
inline Bytes dcbMessage(uint16_t type, uint8_t cmd, uint32_t seq, const Bytes& attrs)
{
    return nlmsg(type, 0, seq, cat({Bytes{0, cmd, 0, 0}, attrs}));
}

inline Bytes etsAttr(const dcbwire::Ets& ets)
{
    auto raw = dcbwire::encodeEts(ets);
    return attr(dcbwire::kIeeeEts, Bytes(raw.begin(), raw.end()));
}

inline Bytes pfcAttr(const dcbwire::Pfc& pfc)
{
    auto raw = dcbwire::encodePfc(pfc);
    return attr(dcbwire::kIeeePfc, Bytes(raw.begin(), raw.end()));
}

inline Bytes appTableAttr(const std::vector<dcbwire::App>& apps)
{
    Bytes entries;
    for (const auto& a : apps) {
        Bytes e = attr(dcbwire::kAppIeee,
                       {a.selector, a.priority, static_cast<uint8_t>(a.protocol & 0xff),
                        static_cast<uint8_t>(a.protocol >> 8)});
        entries.insert(entries.end(), e.begin(), e.end());
    }
    return attr(dcbwire::kIeeeAppTable, entries);
}

// The kernel's answer to IEEE_GET for `state` (ETS and PFC when set), then the ACK.
inline Bytes ieeeGetReply(uint32_t seq, const dcbwire::DcbState& state)
{
    Bytes ieee;
    if (state.ets)
        ieee = cat({ieee, etsAttr(*state.ets)});
    if (state.pfc)
        ieee = cat({ieee, pfcAttr(*state.pfc)});
    ieee = cat({ieee, appTableAttr(state.apps)});
    Bytes attrs =
        cat({stringAttr(dcbwire::kAttrIfname, state.ifname), attr(dcbwire::kAttrIeee, ieee)});
    if (state.dcbx)
        attrs = cat({attrs, attr(dcbwire::kAttrDcbx, {*state.dcbx})});
    return cat(
        {dcbMessage(dcbwire::kRtmGetDcb, dcbwire::kCmdIeeeGet, seq, attrs), nlError(seq, 0)});
}

// The kernel's answer to IEEE_SET/IEEE_DEL: what the driver's op returned (0 or a negative errno)
// as one byte (dcbnl_ieee_set puts the int into a u8: -22 is 0xEA, bnxt's -524 ENOTSUPP 0xF4),
// then the ACK.
inline Bytes ieeeSetReply(uint32_t seq, uint8_t cmd, int driver_return)
{
    auto byte = static_cast<uint8_t>(driver_return);
    return cat({dcbMessage(dcbwire::kRtmSetDcb, cmd, seq, attr(dcbwire::kAttrIeee, {byte})),
                nlError(seq, 0)});
}

} // namespace nicd::test
