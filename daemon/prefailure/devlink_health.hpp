// Pure decoding of devlink health reporters: the JSON `devlink -j health show` prints (also with
// -p), and the attributes of a DEVLINK_CMD_HEALTH_REPORTER_GET reply or of the
// DEVLINK_CMD_HEALTH_REPORTER_RECOVER notification the kernel multicasts on group "config".
// No I/O; every length is checked, so hostile bytes or text throw DecodeError, never read past
// the end.
#pragma once

#include "model/prefailure_readings.hpp"
#include "prefailure/decode_error.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace nicd::prefailure {

// Parses {"health": {"<handle>": [ {"reporter": ..., "state": ..., "error": ...,
// "recover": ...}, ... ], ...}}, compact or pretty-printed. `error` and `recover` are unsigned
// numbers (iproute2 prints u64 max as the string "unlimited", read as UINT64_MAX); fields nicd
// does not keep (grace_period, burst_period, auto_recover, auto_dump, last_dump_*) are ignored.
// healthy = (state == "healthy"). Reporters come out in document order (handles as printed,
// then each handle's array in order). Throws DecodeError naming the handle and key on: text that
// is not JSON, a top level that is not an object with a "health" object, a handle given twice, a
// handle whose value is not an array, a reporter without a non-empty "reporter" name or without
// a "state" string, counters that are not unsigned numbers.
std::vector<HealthReporter> parseDevlinkHealthJson(std::string_view text);

// Decodes the attributes after the genlmsghdr of one devlink message. Reads DEVLINK_ATTR_BUS_NAME,
// _DEV_NAME, optional _PORT_INDEX (handle "bus/dev" or "bus/dev/port") and the
// DEVLINK_ATTR_HEALTH_REPORTER nest (NAME; STATE u8: 0 "healthy", 1 "error", else "unknown";
// ERR_COUNT and RECOVER_COUNT u64). Other attributes (pad, grace period, dump timestamps, ...)
// are skipped. nullopt when the attributes are well formed but hold no reporter nest (not a
// health message). Throws DecodeError, naming the offset or attribute, on a truncated attribute
// header, nla_len shorter than the header or past the end, an integer attribute of the wrong
// length, or a reporter message without bus, device or reporter name, state or counters.
std::optional<HealthReporter> decodeReporterMessage(std::span<const uint8_t> attrs);

// "pci/0000:08:00.0" and "pci/0000:08:00.0/65535" -> "0000:08:00.0"; "" for handles on other
// buses ("auxiliary/mlx5_core.eth.1/131071", "netdevsim/netdevsim1").
std::string pciAddressOf(const std::string& handle);
// The same, as a view into `handle` (no allocation).
std::string_view pciAddressView(std::string_view handle);

} // namespace nicd::prefailure
