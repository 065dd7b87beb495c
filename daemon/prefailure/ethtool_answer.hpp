// The pure half of the ethtool netlink exchange (ethtool_answer.cpp), public so that the tests
// and the fuzzer reach it: the family's reply payload taken, an EIO told apart from "no module".
// EthtoolNetlink (ethtool_netlink.hpp) sends the requests over the SDK's NetlinkRequester.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace nicd::prefailure {

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

// Takes the payload of one reply message of the family (genlmsghdr and attributes) into
// `answer` (has_reply, reply). Throws DecodeError on a payload without a genlmsghdr or with
// another command than `reply_cmd`.
void absorbReply(std::span<const uint8_t> payload, uint8_t reply_cmd, Answer& answer);

// Feeds one datagram into `answer` as NetlinkRequester reads it (plugin::sdk::
// absorbNetlinkDatagram, an acked request: messages with another sequence number skipped, the
// answer finished by its ack or error), each reply of `family` through absorbReply. Throws
// DecodeError on a message whose length runs past the datagram, a truncated error message, a
// message of another type, or a family message with another command.
void absorbDatagram(std::span<const uint8_t> datagram, uint32_t seq, uint16_t family,
                    uint8_t reply_cmd, Answer& answer);

// Whether an EIO from MODULE_EEPROM_GET means "no module in the cage": true unless the
// kernel's message shows a module answered (mlx5 "..., read N bytes, err -5, status S" with
// N > 0 or S other than 1 "no EEPROM response" / 3 "not connected"; mlxsw's I2C error text).
bool eepromIoErrorMeansNoModule(std::string_view extack);

} // namespace ethtool_detail

} // namespace nicd::prefailure
