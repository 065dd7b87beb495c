// The netlink attribute reader: one bounds check per header, the errors it throws worded once.
#include <nicd/plugin/sdk/netlink_attrs.h>

#include <algorithm>
#include <cstring>
#include <string>

namespace nicd::plugin::sdk {

namespace {

constexpr uint16_t kTypeMask = 0x3fff; // NLA_TYPE_MASK: without NLA_F_NESTED, NLA_F_NET_BYTEORDER

uint16_t loadU16(const uint8_t* p)
{
    uint16_t v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

template <class T> T integer(const NetlinkAttr& a, const char* what)
{
    if (a.payload.size() != sizeof(T))
        throw DecodeError(std::string(what) + " (attribute " + std::to_string(a.type) +
                          " at offset " + std::to_string(a.offset) +
                          "): " + std::to_string(a.payload.size()) + " bytes, want " +
                          std::to_string(sizeof(T)));
    T v;
    std::memcpy(&v, a.payload.data(), sizeof v);
    return v;
}

} // namespace

uint8_t NetlinkAttr::u8(const char* what) const
{
    return integer<uint8_t>(*this, what);
}

uint16_t NetlinkAttr::u16(const char* what) const
{
    return integer<uint16_t>(*this, what);
}

uint32_t NetlinkAttr::u32(const char* what) const
{
    return integer<uint32_t>(*this, what);
}

uint64_t NetlinkAttr::u64(const char* what) const
{
    return integer<uint64_t>(*this, what);
}

std::string_view NetlinkAttr::string() const
{
    const auto* chars = reinterpret_cast<const char*>(payload.data());
    return {chars, strnlen(chars, payload.size())};
}

NetlinkAttrs::iterator& NetlinkAttrs::iterator::operator++()
{
    const std::span<const uint8_t> bytes = owner_->bytes_;
    if (next_ >= bytes.size()) {
        owner_ = nullptr;
        return *this;
    }
    const size_t left = bytes.size() - next_;
    const size_t at = owner_->base_ + next_;
    const std::string_view where = owner_->where_;
    if (left < kNetlinkAttrHeader)
        throw DecodeError(std::string(where) + ": attribute at offset " + std::to_string(at) +
                          ": truncated header (" + std::to_string(left) + " bytes left)");
    const uint16_t len = loadU16(bytes.data() + next_);
    const auto type = static_cast<uint16_t>(loadU16(bytes.data() + next_ + 2) & kTypeMask);
    if (len < kNetlinkAttrHeader || len > left)
        throw DecodeError(std::string(where) + ": attribute " + std::to_string(type) +
                          " at offset " + std::to_string(at) + ": nla_len " + std::to_string(len) +
                          (len < kNetlinkAttrHeader
                               ? std::string(" shorter than its header")
                               : " past the end (" + std::to_string(left) + " bytes left)"));
    attr_ = {type, at, bytes.subspan(next_ + kNetlinkAttrHeader, len - kNetlinkAttrHeader)};
    next_ += std::min(netlinkAlign(len), left);
    return *this;
}

} // namespace nicd::plugin::sdk
