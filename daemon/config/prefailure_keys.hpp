// The [signals] section's keys (config.hpp, SignalConfig): the pre-failure sources' interval,
// switches and the limits that override the device's own.
#pragma once

#include "config/key_table.hpp"

namespace nicd::config {

const Keys<SignalConfig>& prefailureKeys();

} // namespace nicd::config
