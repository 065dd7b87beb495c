// libFuzzer target for the plugin SDK's netdev statistics parsers (mlx5 and bnxt read through
// them): the bytes as `ethtool -S` text (what the simulator writes and the fixtures record), and as
// the kernel's ETHTOOL_GSTRINGS name slots followed by the ETHTOOL_GSTATS values (32 bytes of name
// and 8 of value per statistic). Neither throws: a crash, an exception or a sanitizer report is a
// finding. Names come out trimmed and never empty, and a poll checked against the last poll's names
// (the bytes read twice: the second against the first's layout) reads what a whole parse reads.
#include "../support/ethtool_text_stats.hpp"

#include <nicd/plugin/sdk/ethtool_ioctl.h>
#include <nicd/plugin/sdk/ethtool_text.h>
#include <nicd/plugin/sdk/sample_batch.h>

#include <linux/ethtool.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <vector>

namespace sdk = nicd::plugin::sdk;

namespace {

void require(bool ok)
{
    if (!ok)
        std::abort();
}

bool isSpace(char c)
{
    return std::isspace(static_cast<unsigned char>(c)) != 0;
}

void checkStats(const sdk::Stats& stats, size_t input_size)
{
    for (const auto& [name, value] : stats) {
        require(!name.empty() && name.size() < input_size);
        require(!isSpace(name.front()) && !isSpace(name.back()));
    }
}

void ioctlBuffers(const uint8_t* data, size_t size)
{
    constexpr size_t kSlot = ETH_GSTRING_LEN + sizeof(uint64_t);
    const size_t count = size / kSlot;
    // The values in their own aligned buffer, as ETHTOOL_GSTATS fills it.
    std::vector<uint64_t> values(count);
    if (count > 0)
        std::memcpy(values.data(), data + count * ETH_GSTRING_LEN, count * sizeof(uint64_t));
    auto stats = sdk::pairEthtoolStats(reinterpret_cast<const char*>(data), values.data(), count);
    require(stats.size() <= count);
    checkStats(stats, size);
}

// The text polled twice into one batch, the second poll against the first's layout, then once
// more after the first line's bytes are rotated (other names at each line): each poll must read
// parseEthtoolText's statistics.
void pollsAgainstTheLastLayout(std::string_view text)
{
    namespace pv1 = nicd::plugin::v1;
    pv1::SampleBatch batch;
    auto poll = [&batch](std::string_view t) {
        sdk::SampleBatchBuilder out(batch);
        sdk::SampleBatchBuilder::Run run(out, "ethtool", 1, "eth0", pv1::SampleKind::Counter);
        sdk::addEthtoolText(t, run);
        out.finish();
        const auto want = nicd::test::parseEthtoolText(t);
        const auto got = sdk::toSamples(batch);
        require(got.size() == want.size());
        for (size_t i = 0; i < got.size(); ++i)
            require(got[i].name == want[i].first && got[i].value == want[i].second);
    };
    poll(text);
    poll(text);
    std::string rotated(text);
    if (const auto nl = rotated.find('\n'); nl != std::string::npos && nl > 1)
        std::rotate(rotated.begin(), rotated.begin() + 1, rotated.begin() + static_cast<long>(nl));
    poll(rotated);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    checkStats(
        nicd::test::parseEthtoolText(std::string_view(reinterpret_cast<const char*>(data), size)),
        size);
    ioctlBuffers(data, size);
    pollsAgainstTheLastLayout(std::string_view(reinterpret_cast<const char*>(data), size));
    return 0;
}
