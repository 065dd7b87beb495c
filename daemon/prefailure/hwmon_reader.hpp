// Temperature sensors a PCI function registers with hwmon (mlx5 since Linux 6.6: "asic" and
// module sensors, temp*_input/_crit/_highest in millidegrees, temp*_label). A function without
// hwmon (an older kernel, a firmware without MTMP) has no sensors: an empty list, not an error.
#pragma once

#include "model/prefailure_readings.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nicd::prefailure {

// "57000" (millidegrees) -> 57.0; nullopt for anything else.
std::optional<double> parseMillidegrees(std::string_view text);

struct HwmonRead {
    bool present = false;                   // the function has a hwmon directory
    std::vector<TemperatureSensor> sensors; // by channel number
    std::vector<std::string> errors;        // unreadable or malformed files, each naming the file
};

// Reads <function_dir>/hwmon/hwmon*/temp*_input and its companions.
HwmonRead readHwmon(const std::filesystem::path& function_dir);

} // namespace nicd::prefailure
