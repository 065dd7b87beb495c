// libFuzzer target for the mlx5 plugin's netdev statistics parsers: the bytes as `ethtool -S`
// text (what the simulator writes and the fixtures record), and as the kernel's ETHTOOL_GSTRINGS
// name slots followed by the ETHTOOL_GSTATS values (32 bytes of name and 8 of value per
// statistic). Neither throws: a crash, an exception or a sanitizer report is a finding. Names come
// out trimmed and never empty.
#include "ethtool_ioctl.hpp"
#include "ethtool_text.hpp"

#include <linux/ethtool.h>

#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <vector>

namespace mlx5 = nicd::mlx5;

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

void checkStats(const mlx5::Stats& stats, size_t input_size)
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
    auto stats = mlx5::pairEthtoolStats(reinterpret_cast<const char*>(data), values.data(), count);
    require(stats.size() <= count);
    checkStats(stats, size);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    checkStats(mlx5::parseEthtoolText(std::string_view(reinterpret_cast<const char*>(data), size)),
               size);
    ioctlBuffers(data, size);
    return 0;
}
