// libFuzzer target for the FEC decoders: the same bytes go to the FEC_GET reply decoder, to the
// `ethtool --json -I --show-fec` parser as text, to the netlink answer matcher that EthtoolNetlink
// feeds every received datagram to, and as an extack string to the EIO "no module" rule. Only
// DecodeError may come out; anything else (a crash, a sanitizer report, another exception) is a
// finding. What a decoder returns must also hold together. Built and run by scripts/fuzz.sh
// (ctest -L fuzz, make fuzz), with tests/data/fec and hand-built netlink replies as seeds.
#include "prefailure/ethtool_netlink.hpp"
#include "prefailure/fec_stats.hpp"

#include <linux/ethtool_netlink.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <span>
#include <string_view>

namespace {

constexpr uint16_t kFamily = 0x1a; // an ethtool family id as the kernel might assign it

void require(bool ok)
{
    if (!ok)
        std::abort();
}

// The mode is one of ethtool's names or "BIT<n>"; lanes never exceed what the bytes could hold.
void checkStats(const nicd::FecStats& stats, size_t input_size)
{
    require(stats.active.empty() || stats.active == "Off" || stats.active == "RS" ||
            stats.active == "BaseR" || stats.active == "LLRS" || stats.active.rfind("BIT", 0) == 0);
    for (const auto* counter :
         {&stats.corrected_blocks, &stats.uncorrectable_blocks, &stats.corrected_bits}) {
        if (*counter)
            require((*counter)->lanes.size() * sizeof(uint64_t) < input_size);
    }
}

void decodeReply(std::span<const uint8_t> bytes)
{
    try {
        checkStats(nicd::prefailure::decodeFecReply(bytes), bytes.size());
    } catch (const nicd::prefailure::DecodeError&) {
    }
}

void parseJson(std::string_view text)
{
    try {
        nicd::FecStats stats = nicd::prefailure::parseFecJson(text, "eth0");
        require(stats.active != "None");
    } catch (const nicd::prefailure::DecodeError&) {
    }
}

// The first four bytes pick the sequence number, so that the matcher's paths are all reached.
void absorb(std::span<const uint8_t> bytes)
{
    uint32_t seq = 0;
    if (bytes.size() >= sizeof seq)
        std::memcpy(&seq, bytes.data(), sizeof seq);
    nicd::prefailure::ethtool_detail::Answer answer;
    try {
        nicd::prefailure::ethtool_detail::absorbDatagram(bytes, seq, kFamily,
                                                         ETHTOOL_MSG_FEC_GET_REPLY, answer);
        require(!answer.has_reply || answer.reply.size() < bytes.size());
    } catch (const nicd::prefailure::DecodeError&) {
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    std::span<const uint8_t> bytes(data, size);
    std::string_view text(reinterpret_cast<const char*>(data), size);
    decodeReply(bytes);
    parseJson(text);
    absorb(bytes);
    (void)nicd::prefailure::ethtool_detail::eepromIoErrorMeansNoModule(text);
    return 0;
}
