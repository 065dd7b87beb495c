// One ethtool netlink request as EthtoolNetlink sends it (ethtool_netlink.cpp builds and sends it,
// ethtool_reads.cpp says what to ask and reads what came back), and how its exchange ended.
// Private to those two files.
#pragma once

#include "prefailure/ethtool_answer.hpp"

#include <linux/ethtool_netlink.h>

#include <cstdint>
#include <functional>
#include <string>

struct nl_msg;

namespace nicd::prefailure::ethtool_detail {

// One request: the command, the header nest (device name and flags) and the attributes after it.
struct Request {
    uint8_t cmd = 0;
    uint8_t reply_cmd = 0;
    uint16_t header_attr = 0; // 0: no header nest
    const char* cmd_name = "";
    std::string netdev{};
    uint32_t header_flags = 0;
    std::function<int(nl_msg*)> body{}; // adds the attributes after the header; libnl error code
    uint8_t version = ETHTOOL_GENL_VERSION;
};

// How an exchange ended: answered by the kernel, or not (and why).
struct Outcome {
    bool answered = false;
    bool unsupported = false; // not answered because netlink or the family is not there
    std::string failure;      // why it was not answered
    Answer answer;
};

} // namespace nicd::prefailure::ethtool_detail
