// RdmaStatsClient: RDMA requests over the SDK's NetlinkRequester (one NETLINK_RDMA socket,
// requests numbered, answers matched and read with a deadline), the outcome worded as an RDMA
// Status with the kernel's errno and extack text. The bytes: rdma_stats_codec.cpp.
#include <nicd/plugin/sdk/rdma_stats_client.h>

#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>

namespace nicd::plugin::sdk {

namespace pv1 = ::nicd::plugin::v1;

namespace {

constexpr int kDumpAttempts = 3; // a dump interrupted by a device coming or going is asked again

std::string errnoText(int err)
{
    return std::string(std::strerror(err)) + " (errno " + std::to_string(err) + ")";
}

// What an errno from the kernel means for the caller (rdma_stats_client.h).
pv1::Errc errcOf(int err)
{
    switch (err) {
    case EOPNOTSUPP:
    case EINVAL:
    case EPERM:
    case EACCES:
    case EPROTONOSUPPORT:
    case EAFNOSUPPORT:
        return pv1::Errc::NotSupported;
    case ENODEV:
    case ENXIO:
        return pv1::Errc::NoDevice;
    default:
        return pv1::Errc::Io;
    }
}

} // namespace

RdmaStatsClient::RdmaStatsClient(std::chrono::milliseconds timeout)
    : requester_(NETLINK_RDMA, timeout, "RDMA netlink")
{
}

RdmaStatsClient::RdmaStatsClient(int fd, std::chrono::milliseconds timeout)
    : requester_(GivenNetlinkSocket{fd}, timeout, "RDMA netlink")
{
}

template <class Describe, class Decode>
pv1::Status RdmaStatsClient::exchange(Describe&& describe, uint16_t type, Decode&& decode,
                                      bool* interrupted)
{
    NetlinkOutcome out = requester_.exchange(request_, type, decode);
    if (interrupted)
        *interrupted = out.interrupted;
    switch (out.end) {
    case NetlinkEnd::Answered:
        if (out.error == 0)
            return pv1::Status::ok();
        return pv1::Status::fail(errcOf(out.error),
                                 "RDMA netlink " + describe() + ": " + errnoText(out.error) +
                                     (out.extack.empty() ? "" : ": " + out.extack),
                                 out.error);
    case NetlinkEnd::NoSocket: // nothing was sent: no request to name
        return pv1::Status::fail(errcOf(out.error), "RDMA netlink: " + out.why, out.error);
    case NetlinkEnd::SocketFailed:
        return pv1::Status::fail(pv1::Errc::Io, "RDMA netlink: " + out.why, out.error);
    case NetlinkEnd::SendFailed:
        return pv1::Status::fail(errcOf(out.error), "RDMA netlink " + describe() + ": " + out.why,
                                 out.error);
    case NetlinkEnd::Timeout:
        return pv1::Status::fail(pv1::Errc::Timeout, "RDMA netlink " + describe() + ": " + out.why,
                                 out.error);
    case NetlinkEnd::ReceiveFailed:
    case NetlinkEnd::Malformed:
        break;
    }
    return pv1::Status::fail(pv1::Errc::Io, "RDMA netlink " + describe() + ": " + out.why,
                             out.error);
}

pv1::Status RdmaStatsClient::listDevices(std::vector<RdmaDevice>& out)
{
    for (int attempt = 1;; ++attempt) {
        out.clear();
        buildDeviceDumpRequest(0, request_); // the requester numbers it
        bool interrupted = false;
        auto s = exchange(
            [] { return std::string("device list (RDMA_NLDEV_CMD_GET)"); },
            rdmaNldevType(RDMA_NLDEV_CMD_GET),
            [&](std::span<const uint8_t> attrs) { out.push_back(decodeDeviceMessage(attrs)); },
            &interrupted);
        if (!s)
            return s;
        if (!interrupted || attempt == kDumpAttempts)
            break;
    }
    devices_ = out;
    return pv1::Status::ok();
}

pv1::Status RdmaStatsClient::refreshDevices()
{
    std::vector<RdmaDevice> list;
    return listDevices(list);
}

const RdmaDevice* RdmaStatsClient::findDevice(std::string_view ibdev) const
{
    auto it = std::find_if(devices_.begin(), devices_.end(),
                           [&](const RdmaDevice& d) { return d.name == ibdev; });
    return it == devices_.end() ? nullptr : &*it;
}

pv1::Status RdmaStatsClient::statGet(std::string_view ibdev, uint32_t index, uint32_t port,
                                     RdmaHwCounters& out, bool& other_device)
{
    other_device = false;
    buildStatGetRequest(0, index, port, request_); // the requester numbers it
    bool replied = false;
    RdmaStatHeader header;
    auto what = [&] { return "STAT_GET " + std::string(ibdev) + " port " + std::to_string(port); };
    auto s = exchange(
        what, rdmaNldevType(RDMA_NLDEV_CMD_STAT_GET),
        [&](std::span<const uint8_t> attrs) {
            header = decodeStatGetReply(attrs, out);
            replied = true;
        },
        nullptr);
    if (!s)
        return s;
    if (!replied)
        return pv1::Status::fail(
            pv1::Errc::Io, "RDMA netlink " + what() + ": acknowledged without a reply", EBADMSG);
    if (header.dev_name != ibdev || header.dev_index != index) {
        other_device = true;
        return pv1::Status::fail(pv1::Errc::Io,
                                 "RDMA netlink " + what() + ": the reply is about " +
                                     std::string(header.dev_name) + " (index " +
                                     std::to_string(header.dev_index) + "), not index " +
                                     std::to_string(index),
                                 EBADMSG);
    }
    if (header.port != port)
        return pv1::Status::fail(pv1::Errc::Io,
                                 "RDMA netlink " + what() + ": the reply is about port " +
                                     std::to_string(header.port),
                                 EBADMSG);
    return pv1::Status::ok();
}

pv1::Status RdmaStatsClient::readHwCounters(std::string_view ibdev, uint32_t port,
                                            RdmaHwCounters& out)
{
    bool listed_now = false;
    const RdmaDevice* dev = findDevice(ibdev);
    for (;;) {
        if (!dev && !listed_now) {
            if (auto s = refreshDevices(); !s)
                return s;
            listed_now = true;
            dev = findDevice(ibdev);
        }
        if (!dev)
            return pv1::Status::fail(pv1::Errc::NoDevice,
                                     "RDMA netlink: no RDMA device named " + std::string(ibdev) +
                                         " among the " + std::to_string(devices_.size()) +
                                         " the kernel lists",
                                     ENODEV);
        bool other_device = false;
        auto s = statGet(ibdev, dev->index, port, out, other_device);
        // An index that no longer names this device: the device was registered again (a new
        // index) or renamed. The list is asked for again, once.
        const bool stale = other_device || s.sys_errno == EINVAL || s.sys_errno == ENODEV;
        if (s || listed_now || !stale)
            return s;
        dev = nullptr;
    }
}

} // namespace nicd::plugin::sdk
