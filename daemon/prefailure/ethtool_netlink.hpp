// The I/O edge to the kernel's "ethtool" generic netlink family: FEC statistics
// (ETHTOOL_MSG_FEC_GET) and module EEPROM reads (ETHTOOL_MSG_MODULE_EEPROM_GET). Requests are
// built with libnl-genl-3 and sent over the SDK's NetlinkRequester (the socket, sequence numbers
// and replies: ethtool_netlink.cpp); what to ask and how a reply reads: ethtool_reads.cpp. The
// family is looked up on first use; every wait for the kernel is bounded by the timeout given at
// construction, so wedged firmware cannot block the caller. Each answer is a Reply
// (prefailure/netlink_reply.hpp): Ok, Unsupported (the interface or device is not there: report it
// once, at info level) or Failed (the message names the netdev, the command and the error).
// Not thread-safe: one per thread.
#pragma once

#include "model/prefailure_readings.hpp"
#include "prefailure/ethtool_answer.hpp"
#include "prefailure/netlink_reply.hpp"

#include <nicd/plugin/sdk/netlink_requester.h>

#include <chrono>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace nicd::prefailure {

namespace ethtool_detail {
struct Request;
struct Outcome;
} // namespace ethtool_detail

class EthtoolNetlink {
public:
    explicit EthtoolNetlink(std::chrono::milliseconds timeout);
    ~EthtoolNetlink();
    EthtoolNetlink(const EthtoolNetlink&) = delete;
    EthtoolNetlink& operator=(const EthtoolNetlink&) = delete;

    // FEC mode and statistics (header flag ETHTOOL_FLAG_STATS; asked again once without it when
    // the kernel rejects the flag with EINVAL or EOPNOTSUPP). Unsupported: no ethtool family,
    // EOPNOTSUPP (the driver has no FEC op), ENODEV (no such netdev), EPERM/EACCES.
    Reply<FecStats> readFec(const std::string& netdev);

    // `length` bytes (1-128) of module EEPROM at `offset` of `page`/`bank` behind `i2c_address`
    // (0x50 = A0h, 0x51 = A2h). A reply shorter than `length` is Failed (mlx5 without fix
    // d1c94bc5b90c answers a failed read with 0 bytes and no error). Unsupported: no ethtool
    // family, EOPNOTSUPP, ENODEV, EPERM/EACCES, and EIO unless the kernel's message shows a module
    // did answer (an MCIA status other than "no module", or some bytes read).
    Reply<std::vector<uint8_t>> readModuleEeprom(const std::string& netdev, uint8_t i2c_address,
                                                 uint8_t page, uint8_t bank, uint8_t offset,
                                                 uint8_t length);

private:
    // Looks the family up if that is not done yet, then sends `request` and waits for its answer.
    ethtool_detail::Outcome exchange(const ethtool_detail::Request& request);
    // Returns why the family is not known; sets `unsupported` when netlink or the family is
    // simply not there.
    std::string lookUpFamily(bool& unsupported);

    plugin::sdk::NetlinkRequester requester_;
    int family_ = -1; // the kernel's id of the "ethtool" family, once looked up
};

} // namespace nicd::prefailure
