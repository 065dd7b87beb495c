// The firmware baseline: what the fleet says each board must run ([health] FirmwareMin=,
// FirmwareAllowed=; config/firmware_values.hpp), against the fw_ver each device prints. A device
// of a board with a baseline whose firmware is below the board's lowest version, or not among its
// allowed versions, raises firmware_below_baseline (degraded, update_firmware; TrainingRules
// judges it beside firmware_drift, training_rules.hpp). Devices of a board named in neither key,
// VFs (their fw_ver is the PF's) and devices that print no board_id or fw_ver are not judged.
#pragma once

#include "config/config.hpp"
#include "health/verdicts.hpp"
#include "model/inventory.hpp"

#include <optional>
#include <string>

namespace nicd::health {

inline constexpr const char* kFirmwareBelowBaseline = "firmware_below_baseline";

// Why `fw_ver` misses the baseline of `board` ("below the baseline 28.40.1000 ([health]
// FirmwareMin=)"), or nullopt when it meets it or the board has none.
std::optional<std::string> missesBaseline(const std::string& board, const std::string& fw_ver,
                                          const HealthConfig& health);

// Judges every device of a board with a baseline into `v`.
void judgeFirmwareBaseline(const Inventory& inv, const HealthConfig& health, Verdicts& v);

// A firmware_below_baseline of a device whose board has no baseline any more (a reload took it).
bool baselineWithdrawn(const Condition& c, const Inventory& inv, const HealthConfig& health);

} // namespace nicd::health
