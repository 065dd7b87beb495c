#include "ethtool_stats.hpp"

#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <memory>

namespace nicd::mlx5 {

namespace pv1 = ::nicd::plugin::v1;

Stats parseEthtoolText(std::string_view text)
{
    Stats out;
    while (!text.empty()) {
        auto nl = text.find('\n');
        auto line = text.substr(0, nl);
        text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
        auto colon = line.rfind(':');
        if (colon == std::string_view::npos)
            continue;
        auto name = line.substr(0, colon);
        while (!name.empty() && std::isspace(static_cast<unsigned char>(name.front())))
            name.remove_prefix(1);
        while (!name.empty() && std::isspace(static_cast<unsigned char>(name.back())))
            name.remove_suffix(1);
        auto value = line.substr(colon + 1);
        while (!value.empty() && std::isspace(static_cast<unsigned char>(value.front())))
            value.remove_prefix(1);
        while (!value.empty() && std::isspace(static_cast<unsigned char>(value.back())))
            value.remove_suffix(1);
        uint64_t v = 0;
        auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
        if (name.empty() || value.empty() || ec != std::errc() ||
            ptr != value.data() + value.size())
            continue;
        out.emplace_back(std::string(name), v);
    }
    return out;
}

namespace {

struct Fd {
    int fd;
    ~Fd()
    {
        if (fd >= 0)
            ::close(fd);
    }
};

int ethtoolIoctl(int fd, const std::string& netdev, void* data)
{
    ifreq ifr{};
    std::strncpy(ifr.ifr_name, netdev.c_str(), IFNAMSIZ - 1);
    ifr.ifr_data = static_cast<char*>(data);
    return ::ioctl(fd, SIOCETHTOOL, &ifr) < 0 ? errno : 0;
}

// Number of statistics the driver reports now, or -errno.
long statsCount(int fd, const std::string& netdev)
{
    // ethtool_sset_info followed by one u32: the count of the one set asked for.
    alignas(ethtool_sset_info) uint8_t buf[sizeof(ethtool_sset_info) + sizeof(uint32_t)] = {};
    auto* info = reinterpret_cast<ethtool_sset_info*>(buf);
    info->cmd = ETHTOOL_GSSET_INFO;
    info->sset_mask = 1ULL << ETH_SS_STATS;
    if (int e = ethtoolIoctl(fd, netdev, info))
        return -e;
    if ((info->sset_mask & (1ULL << ETH_SS_STATS)) == 0)
        return 0;
    uint32_t count = 0;
    std::memcpy(&count, buf + sizeof(ethtool_sset_info), sizeof count);
    return count;
}

pv1::Status fail(const std::string& netdev, const char* step, int err)
{
    auto code = err == EOPNOTSUPP ? pv1::Errc::NotSupported
                : err == ENODEV   ? pv1::Errc::NoDevice
                                  : pv1::Errc::Io;
    return pv1::Status::fail(code, netdev + ": ethtool " + step + ": " + std::strerror(err), err);
}

} // namespace

pv1::Status readEthtoolIoctl(const std::string& netdev, Stats& out)
{
    Fd sock{::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0)};
    if (sock.fd < 0)
        return fail(netdev, "socket", errno);
    for (int attempt = 0; attempt < 3; ++attempt) {
        long n = statsCount(sock.fd, netdev);
        if (n < 0)
            return fail(netdev, "GSSET_INFO", static_cast<int>(-n));
        if (n == 0 || n > 65536) {
            out.clear();
            return n == 0 ? pv1::Status::ok() : fail(netdev, "GSSET_INFO", EOVERFLOW);
        }
        const auto count = static_cast<size_t>(n);

        auto strings =
            std::make_unique<uint8_t[]>(sizeof(ethtool_gstrings) + count * ETH_GSTRING_LEN);
        auto* gs = reinterpret_cast<ethtool_gstrings*>(strings.get());
        gs->cmd = ETHTOOL_GSTRINGS;
        gs->string_set = ETH_SS_STATS;
        gs->len = static_cast<uint32_t>(count);
        if (int e = ethtoolIoctl(sock.fd, netdev, gs))
            return fail(netdev, "GSTRINGS", e);

        auto values = std::make_unique<uint8_t[]>(sizeof(ethtool_stats) + count * sizeof(uint64_t));
        auto* st = reinterpret_cast<ethtool_stats*>(values.get());
        st->cmd = ETHTOOL_GSTATS;
        st->n_stats = static_cast<uint32_t>(count);
        if (int e = ethtoolIoctl(sock.fd, netdev, st))
            return fail(netdev, "GSTATS", e);

        // The kernel fills at most the count it reports now; if that changed, names and values
        // may not line up: read again.
        if (gs->len != count || st->n_stats != count || statsCount(sock.fd, netdev) != n)
            continue;
        out.clear();
        out.reserve(count);
        const char* names = reinterpret_cast<const char*>(gs->data);
        for (size_t i = 0; i < count; ++i) {
            const char* s = names + i * ETH_GSTRING_LEN;
            out.emplace_back(std::string(s, strnlen(s, ETH_GSTRING_LEN)), st->data[i]);
        }
        return pv1::Status::ok();
    }
    return pv1::Status::fail(pv1::Errc::Busy, netdev + ": ethtool statistics count kept changing");
}

} // namespace nicd::mlx5
