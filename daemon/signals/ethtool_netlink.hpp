// The I/O edge to the kernel's "ethtool" generic netlink family (libnl-genl-3): FEC statistics
// (ETHTOOL_MSG_FEC_GET) and module EEPROM reads (ETHTOOL_MSG_MODULE_EEPROM_GET). The family is
// looked up on first use; every wait for the kernel is bounded by the timeout given at
// construction, so wedged firmware cannot block the caller. Each answer is a Reply
// (signals/netlink_reply.hpp): Ok, Unsupported (the interface or device is not there: report it
// once, at info level) or Failed (the message names the netdev, the command and the error).
// Not thread-safe: one per thread.
#pragma once

#include "model/signals.hpp"
#include "signals/netlink_reply.hpp"

#include <chrono>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

struct nl_sock;

namespace nicd::signals {

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
    // Opens the socket and looks the family up if that is not done yet, then sends `request`
    // and waits for its answer.
    ethtool_detail::Outcome exchange(const ethtool_detail::Request& request);
    // Returns why the socket or family is not ready; sets `unsupported` when netlink or the
    // family is simply not there.
    std::string open(bool& unsupported);
    std::string lookUpFamily(bool& unsupported);
    ethtool_detail::Outcome roundTrip(const ethtool_detail::Request& request, int family);

    std::chrono::milliseconds timeout_;
    std::unique_ptr<nl_sock, void (*)(nl_sock*)> sock_;
    int family_ = -1; // the kernel's id of the "ethtool" family, once looked up
};

// Pieces of the exchange that need no socket, public so that tests and the fuzzer reach them.
namespace ethtool_detail {

// What the kernel has said so far about the request with one sequence number.
struct Answer {
    bool finished = false;      // its ack or error arrived
    int error = 0;              // positive errno of that error; 0 for an ack
    std::string extack;         // the kernel's NLMSGERR_ATTR_MSG, if it sent one
    bool has_reply = false;     // a message of the family with the reply command arrived
    std::vector<uint8_t> reply; // that message's attributes (after the genlmsghdr)
};

// Feeds one datagram received from the socket into `answer`: messages with another sequence
// number or of another type are skipped. Throws DecodeError on a message whose length runs past
// the datagram, a truncated error message, or a family message with another command.
void absorbDatagram(std::span<const uint8_t> datagram, uint32_t seq, uint16_t family,
                    uint8_t reply_cmd, Answer& answer);

// Whether an EIO from MODULE_EEPROM_GET means "no module in the cage": true unless the
// kernel's message shows a module answered (mlx5 "..., read N bytes, err -5, status S" with
// N > 0 or S other than 1 "no EEPROM response" / 3 "not connected"; mlxsw's I2C error text).
bool eepromIoErrorMeansNoModule(std::string_view extack);

} // namespace ethtool_detail

} // namespace nicd::signals
