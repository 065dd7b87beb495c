// A port's hw counters from the kernel in one RDMA netlink message (RDMA_NLDEV_CMD_STAT_GET, as
// iproute2's `rdma statistic show link DEV/PORT` asks), instead of one sysfs file each. The
// RDMA half: the socket, its sequence numbers and the reading of answers are the SDK's one
// NetlinkRequester (netlink_requester.h); the bytes are built and decoded by rdma_stats_codec.h.
// For any vendor plugin on a real root: under --root the simulated tree's files are the only source
// (this speaks to the kernel).
//
// The kernel carries out a request within the send (in the caller's thread, as it does a sysfs
// read), so a firmware command that hangs blocks the send as it would block a read: the daemon's
// driver deadline covers both. The receive timeout covers an answer that never comes.
// Not thread-safe: one per plugin (a plugin's calls are serialized).
#pragma once

#include <nicd/plugin/plugin.h>
#include <nicd/plugin/sdk/netlink_requester.h>
#include <nicd/plugin/sdk/rdma_stats_codec.h>

#include <chrono>
#include <cstdint>
#include <string_view>
#include <vector>

namespace nicd::plugin::sdk {

class RdmaStatsClient {
public:
    static constexpr std::chrono::milliseconds kDefaultTimeout{1000};

    // Opens its NETLINK_RDMA socket, connected to the kernel, at the first request.
    explicit RdmaStatsClient(std::chrono::milliseconds timeout = kDefaultTimeout);
    // Speaks over `fd`, a datagram socket already connected to whatever answers as the kernel
    // would (a test's peer); takes it. Once it fails, it is not reopened.
    RdmaStatsClient(int fd, std::chrono::milliseconds timeout);
    ~RdmaStatsClient() = default;
    RdmaStatsClient(const RdmaStatsClient&) = delete;
    RdmaStatsClient& operator=(const RdmaStatsClient&) = delete;

    // Every RDMA device of this network namespace (RDMA_NLDEV_CMD_GET dump), in the kernel's order;
    // also what later requests look device names up in.
    v1::Status listDevices(std::vector<RdmaDevice>& out);

    // Every hw counter of port `port` of the device named `ibdev`, sorted by name, into `out`
    // (reused: a steady poll allocates nothing). The name is looked up in the device list, listed
    // again when it is not there or when the kernel answers for another device (an index that
    // changed hands); the reply must name the device, index and port asked for.
    // Errors (the message names the device, port and request; sys_errno is set):
    //   NotSupported: no NETLINK_RDMA in this kernel, or the kernel refused the request
    //     (EINVAL: a kernel before 5.3, a driver without port counters; EOPNOTSUPP, EPERM).
    //   NoDevice: no such device in the kernel's list, or ENODEV.
    //   Timeout: no answer within the timeout.
    //   Io: a malformed answer (EBADMSG), a reply about another port, any other errno.
    v1::Status readHwCounters(std::string_view ibdev, uint32_t port, RdmaHwCounters& out);

    // Requests sent so far (each is one send and, as a rule, one receive).
    uint64_t requests() const { return requester_.requests(); }

private:
    v1::Status refreshDevices();
    const RdmaDevice* findDevice(std::string_view ibdev) const;
    v1::Status statGet(std::string_view ibdev, uint32_t index, uint32_t port, RdmaHwCounters& out,
                       bool& other_device);
    // Sends request_ and hands each reply message of `type` to `decode`; the kernel's errno or
    // what failed becomes the Status, whose message starts with what `describe()` says the
    // request was.
    template <class Describe, class Decode>
    v1::Status exchange(Describe&& describe, uint16_t type, Decode&& decode, bool* interrupted);

    NetlinkRequester requester_;
    std::vector<uint8_t> request_;
    std::vector<RdmaDevice> devices_;
};

} // namespace nicd::plugin::sdk
