// What nicd's kernel readers return, written back in the formats of the tools whose output the
// simulator stores (DESIGN.md, "simulated sources"), so a capture of a real node replays through
// the same decoders as a simulated one. Pure: each output decodes back to its input with nicd's
// own parser (tests/unit/capture_encoders_test.cpp checks that).
#pragma once

#include "model/prefailure_readings.hpp"
#include "prefailure/module_eeprom.hpp"
#include "prefailure/netlink_reply.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace nicd::sim::capture {

// `ethtool --json -I --show-fec <netdev>`: one object with ifname, active (ethtool's "None" when
// the kernel named no mode) and the statistics nicd keeps (total, then lanes when there are).
std::string fecJson(const FecStats& stats);

// `devlink -j health show`: {"health": {"<handle>": [{"reporter", "state", "error",
// "recover"}, ...]}}, handles in the order first met; u64 max as "unlimited", as iproute2 does.
std::string devlinkHealthJson(const std::vector<HealthReporter>& reporters);

// `ethtool -S <netdev>`: "NIC statistics:" and one "     name: value" line per statistic.
std::string ethtoolText(const std::vector<std::pair<std::string, uint64_t>>& stats);

// A module's EEPROM image in nicd's blob layout, read as nicd reads it: the lower page (i2c 0x50,
// page 0, offset 0, 128 bytes), then each read of prefailure::eepromReadPlan(lower page). `read`
// does one ETHTOOL_MSG_MODULE_EEPROM_GET; the first read that is not Ok is the answer.
using EepromReader =
    std::function<prefailure::Reply<std::vector<uint8_t>>(const prefailure::EepromRead&)>;
prefailure::Reply<std::vector<uint8_t>> readModuleBlob(const EepromReader& read);

} // namespace nicd::sim::capture
