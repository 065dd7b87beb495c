#include <nicd/plugin/sdk/ethtool_ioctl.h>
#include <nicd/plugin/sdk/guarded_buffer.h>

#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <string_view>

namespace nicd::plugin::sdk {

namespace pv1 = ::nicd::plugin::v1;

Stats pairEthtoolStats(const char* name_slots, const uint64_t* values, size_t count)
{
    Stats out;
    out.reserve(count);
    for (size_t i = 0; i < count; ++i) {
        const char* slot = name_slots + i * ETH_GSTRING_LEN;
        std::string_view name(slot, strnlen(slot, ETH_GSTRING_LEN));
        while (!name.empty() && std::isspace(static_cast<unsigned char>(name.back())))
            name.remove_suffix(1);
        while (!name.empty() && std::isspace(static_cast<unsigned char>(name.front())))
            name.remove_prefix(1);
        if (!name.empty())
            out.emplace_back(std::string(name), values[i]);
    }
    return out;
}

namespace {

constexpr uint32_t kMaxStats = 1U << 16; // far above any driver; guards against garbage counts
constexpr int kAttempts = 4;

// SIOCETHTOOL is a device ioctl: any socket of the netdev's namespace carries it. AF_UNIX, so
// the unit can forbid Internet sockets (RestrictAddressFamilies=AF_UNIX AF_NETLINK).
class Socket {
public:
    Socket() : fd_(::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0)) {}
    ~Socket()
    {
        if (fd_ >= 0)
            ::close(fd_);
    }
    Socket(const Socket&) = delete;
    Socket& operator=(const Socket&) = delete;
    int fd() const { return fd_; }

private:
    int fd_;
};

// 0, or the errno of the ioctl.
int ethtool(const Socket& sock, const std::string& netdev, void* data)
{
    ifreq ifr{};
    std::memcpy(ifr.ifr_name, netdev.data(), std::min<size_t>(netdev.size(), IFNAMSIZ - 1));
    ifr.ifr_data = static_cast<char*>(data);
    int rc;
    do {
        rc = ::ioctl(sock.fd(), SIOCETHTOOL, &ifr);
    } while (rc < 0 && errno == EINTR);
    return rc < 0 ? errno : 0;
}

// The driver's current number of statistics; 0 with `err` set on failure.
uint32_t statsCount(const EthtoolCall& call, int& err)
{
    // ethtool_sset_info is followed by one u32 per bit set in sset_mask: ours has one.
    alignas(ethtool_sset_info) uint8_t buf[sizeof(ethtool_sset_info) + sizeof(uint32_t)] = {};
    auto* info = reinterpret_cast<ethtool_sset_info*>(buf);
    info->cmd = ETHTOOL_GSSET_INFO;
    info->sset_mask = 1ULL << ETH_SS_STATS;
    err = call(info);
    if (err == 0) {
        if ((info->sset_mask & (1ULL << ETH_SS_STATS)) == 0)
            return 0;
        uint32_t count = 0;
        std::memcpy(&count, buf + sizeof(ethtool_sset_info), sizeof count);
        return count;
    }
    if (err != EOPNOTSUPP)
        return 0;
    ethtool_drvinfo drv{}; // drivers without get_sset_count for GSSET_INFO
    drv.cmd = ETHTOOL_GDRVINFO;
    err = call(&drv);
    return err == 0 ? drv.n_stats : 0;
}

pv1::Status failure(const std::string& netdev, const char* step, int err)
{
    const auto code = err == EOPNOTSUPP ? pv1::Errc::NotSupported
                      : err == ENODEV   ? pv1::Errc::NoDevice
                      : err == EPERM    ? pv1::Errc::PermissionDenied
                                        : pv1::Errc::Io;
    return pv1::Status::fail(code, netdev + ": ethtool " + step + ": " + std::strerror(err), err);
}

// The names' and the values' buffers, kept from one read to the next (a thread reads one netdev
// at a time; plugin polls are serialized).
struct Buffers {
    GuardedBuffer strings;
    GuardedBuffer stats;
};

} // namespace

pv1::Status readEthtoolStats(const std::string& netdev, const EthtoolCall& call, Stats& out)
{
    out.clear();
    static thread_local Buffers buffers;
    for (int attempt = 0; attempt < kAttempts; ++attempt) {
        int err = 0;
        const uint32_t count = statsCount(call, err);
        if (err != 0)
            return failure(netdev, "GSSET_INFO", err);
        if (count == 0)
            return pv1::Status::fail(pv1::Errc::NotSupported, netdev + ": no ethtool statistics");
        if (count > kMaxStats)
            return failure(netdev, "GSSET_INFO", EOVERFLOW);

        // Sized for `count` exactly: a kernel that copies more faults at the guard page (EFAULT),
        // one that copies fewer reports another len/n_stats; either way the read is made again.
        auto* strings = static_cast<ethtool_gstrings*>(
            buffers.strings.get(sizeof(ethtool_gstrings) + size_t{count} * ETH_GSTRING_LEN));
        auto* stats = static_cast<ethtool_stats*>(
            buffers.stats.get(sizeof(ethtool_stats) + size_t{count} * sizeof(uint64_t)));
        if (strings == nullptr || stats == nullptr)
            return failure(netdev, "buffers", ENOMEM);
        strings->cmd = ETHTOOL_GSTRINGS;
        strings->string_set = ETH_SS_STATS;
        strings->len = count;
        if (int e = call(strings); e == EFAULT)
            continue; // the count grew past the buffer: the guard page stopped the copy
        else if (e != 0)
            return failure(netdev, "GSTRINGS", e);
        stats->cmd = ETHTOOL_GSTATS;
        stats->n_stats = count;
        if (int e = call(stats); e == EFAULT)
            continue;
        else if (e != 0)
            return failure(netdev, "GSTATS", e);

        if (strings->len != count || stats->n_stats != count || statsCount(call, err) != count)
            continue; // the set changed under us: names and values may not line up
        static_assert(offsetof(ethtool_stats, data) % sizeof(uint64_t) == 0);
        out = pairEthtoolStats(reinterpret_cast<const char*>(strings->data),
                               reinterpret_cast<const uint64_t*>(stats->data), count);
        return pv1::Status::ok();
    }
    return pv1::Status::fail(pv1::Errc::Busy,
                             netdev + ": the ethtool statistics count changed on every one of " +
                                 std::to_string(kAttempts) + " reads");
}

pv1::Status readEthtoolIoctl(const std::string& netdev, Stats& out)
{
    out.clear();
    if (netdev.empty() || netdev.size() >= IFNAMSIZ)
        return pv1::Status::fail(pv1::Errc::InvalidArgument,
                                 "'" + netdev + "' is not a network interface name");
    Socket sock;
    if (sock.fd() < 0)
        return failure(netdev, "socket", errno);
    return readEthtoolStats(
        netdev, [&](void* data) { return ethtool(sock, netdev, data); }, out);
}

} // namespace nicd::plugin::sdk
