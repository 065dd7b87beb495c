// libFuzzer target for the plugin SDK's DCB codec: the same bytes go, as the replies the kernel
// sends to IEEE_GET and to IEEE_SET/IEEE_DEL, to replyComplete, decodeGetReply and
// decodeSetReply, and as a PFC and an ETS attribute to decodePfc and decodeEts. The codec throws
// DecodeError on malformed input and nothing else: any other exception, crash or sanitizer report
// is a finding. What it decodes must hold together, and a decoded PFC or ETS must survive
// encodePfc or encodeEts unchanged.
#include <nicd/plugin/sdk/dcb_codec.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <span>
#include <variant>

namespace dcb = nicd::plugin::sdk::dcb;

namespace {

constexpr size_t kSeqOffset = 8;  // nlmsghdr.nlmsg_seq
constexpr size_t kCmdOffset = 17; // dcbmsg.cmd of the first message
constexpr int kMaxErrno = 4095;

void require(bool ok)
{
    if (!ok)
        std::abort();
}

// The sequence number and command of the first message, so that the decoders' matching paths
// are reached with the bytes the fuzzer keeps.
uint32_t seqOf(std::span<const uint8_t> bytes)
{
    uint32_t seq = 0;
    if (bytes.size() >= kSeqOffset + sizeof seq)
        std::memcpy(&seq, bytes.data() + kSeqOffset, sizeof seq);
    return seq;
}

void getReply(std::span<const uint8_t> bytes, uint32_t seq)
{
    dcb::GetReply r;
    try {
        r = dcb::decodeGetReply(bytes, seq);
    } catch (const nicd::plugin::sdk::DecodeError&) {
        return;
    }
    require(r.error >= 0 && r.error <= kMaxErrno);
    // Every APP entry took a 4-byte attribute header and 4 bytes of payload.
    require(r.state.apps.size() * 8 <= bytes.size());
    require(r.state.ifname.size() < bytes.size());
    require(r.state.ifname.find('\0') == std::string::npos);
}

void setReply(std::span<const uint8_t> bytes, uint32_t seq, uint8_t cmd)
{
    dcb::SetReply r;
    try {
        r = dcb::decodeSetReply(bytes, seq, cmd);
    } catch (const nicd::plugin::sdk::DecodeError&) {
        return;
    }
    require(r.error >= 0 && r.error <= kMaxErrno);
    require(!r.in_band || (r.error > 0 && r.error <= 128));
}

// A struct decoded from `bytes` survives its own encoding unchanged (and that throws nothing).
template <class Decode, class Encode>
void roundTrip(std::span<const uint8_t> bytes, Decode decode, Encode encode)
{
    decltype(decode(bytes)) v;
    try {
        v = decode(bytes);
    } catch (const nicd::plugin::sdk::DecodeError&) {
        return;
    }
    require(decode(encode(v)) == v);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    std::span<const uint8_t> bytes(data, size);
    uint32_t seq = seqOf(bytes);
    try {
        (void)dcb::replyComplete(bytes, seq);
    } catch (const nicd::plugin::sdk::DecodeError&) {
    }
    getReply(bytes, seq);
    setReply(bytes, seq, size > kCmdOffset ? data[kCmdOffset] : dcb::kCmdIeeeSet);
    roundTrip(bytes, dcb::decodePfc, dcb::encodePfc);
    roundTrip(bytes, dcb::decodeEts, dcb::encodeEts);
    return 0;
}
