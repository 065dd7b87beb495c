// The pre-failure sources read from a device's PCI function in sysfs: its hwmon temperature
// sensors and how its PCIe link trained. One key per device with a function of its own (VFs are
// judged through their PF).
#pragma once

#include "collect/source.hpp"
#include "prefailure/keyed_source.hpp"

#include <memory>

namespace nicd::prefailure {

std::unique_ptr<collect::Source> makeTemperatureSource(SourceTiming timing);
std::unique_ptr<collect::Source> makePcieSource(SourceTiming timing);

} // namespace nicd::prefailure
