// [health] FirmwareMin= and FirmwareAllowed=: the firmware baseline of each board, as PSID:VERSION
// items separated by commas or whitespace ("MT_0000000838:28.39.1002, MT_0000000970:28.41.1000").
// PSID is the card's board_id (sysfs /sys/class/infiniband/<dev>/board_id: mlx5's PSID, bnxt_re's
// VPD part number); VERSION is dotted decimal numbers, compared number by number as fw_ver prints
// them. There is no "*" entry for every board: firmware versions belong to a card's family (a
// ConnectX-6's 20.x, a ConnectX-7's 28.x, a BCM57608's 230.x), so one minimum across boards would
// flag every card of another family.
#pragma once

#include "text/result.hpp"

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace nicd::config {

// FirmwareMin=: one lowest version per board (a board given twice is an error). Empty: none.
Result<std::map<std::string, std::string>> parseFirmwareMin(std::string_view v);
// FirmwareAllowed=: the versions each board may run; a board's items gather in the order written
// (the same version twice is an error). Empty: none.
Result<std::map<std::string, std::vector<std::string>>> parseFirmwareAllowed(std::string_view v);

} // namespace nicd::config
