// libFuzzer target for the RDMA netlink hw counter codec (plugin SDK): the same bytes go to the
// STAT_GET reply decoder and the device message decoder as one message's attributes, and to the
// datagram matcher that RdmaStatsClient feeds every received datagram to (as a single-message
// answer and as a dump), whose messages are decoded in turn. Only DecodeError may come out;
// anything else (a crash, a sanitizer report, another exception) is a finding. What a decoder
// returns must also hold together: names non-empty, without NUL or '/', sorted and unique. Built
// and run by scripts/fuzz.sh (ctest -L fuzz, make fuzz), with hand-built replies as seeds.
#include <nicd/plugin/sdk/rdma_stats_codec.h>

#include <rdma/rdma_netlink.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <span>
#include <string_view>

namespace {

namespace sdk = nicd::plugin::sdk;

void require(bool ok)
{
    if (!ok)
        std::abort();
}

void decodeStat(std::span<const uint8_t> attrs)
{
    try {
        sdk::RdmaHwCounters counters;
        const sdk::RdmaStatHeader h = sdk::decodeStatGetReply(attrs, counters);
        require(!h.dev_name.empty() && h.dev_name.find('\0') == std::string_view::npos);
        for (size_t i = 0; i < counters.size(); ++i) {
            const std::string_view name = counters.name(i);
            require(!name.empty() && name.find('\0') == std::string_view::npos &&
                    name.find('/') == std::string_view::npos);
            require(i == 0 || counters.name(i - 1) < name);
        }
        require(counters.size() * 16 <= attrs.size()); // an entry takes at least 16 bytes
    } catch (const sdk::DecodeError&) {
    }
}

void decodeDevice(std::span<const uint8_t> attrs)
{
    try {
        const sdk::RdmaDevice d = sdk::decodeDeviceMessage(attrs);
        require(!d.name.empty() && d.name.size() < attrs.size());
    } catch (const sdk::DecodeError&) {
    }
}

// The first four bytes pick the sequence number (the first message's length), so that the
// matcher's paths are all reached.
void absorb(std::span<const uint8_t> bytes, uint8_t cmd, bool dump)
{
    uint32_t seq = 0;
    if (bytes.size() >= sizeof seq)
        std::memcpy(&seq, bytes.data(), sizeof seq);
    sdk::RdmaAnswer answer;
    try {
        sdk::absorbRdmaDatagram(bytes, seq, sdk::rdmaNldevType(cmd), dump, answer);
    } catch (const sdk::DecodeError&) {
        return;
    }
    require(answer.extack.empty() || answer.finished); // the kernel's text comes with its end
    for (auto message : answer.messages) {
        require(message.data() >= bytes.data() &&
                message.data() + message.size() <= bytes.data() + bytes.size());
        if (cmd == RDMA_NLDEV_CMD_STAT_GET)
            decodeStat(message);
        else
            decodeDevice(message);
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    std::span<const uint8_t> bytes(data, size);
    decodeStat(bytes);
    decodeDevice(bytes);
    absorb(bytes, RDMA_NLDEV_CMD_STAT_GET, false);
    absorb(bytes, RDMA_NLDEV_CMD_GET, true);
    return 0;
}
