// `nicctl show DEV`: one device in full — identity, health and every active condition with its
// action, and the pre-failure signals nicd reads (PCIe training, temperatures, firmware health
// reporters; per port: FEC and BER, the optical module's diagnostics lane by lane). Pure.
#pragma once

#include "node_view.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace nicctl {

std::string renderDevice(const DeviceView& device, bool color);

// The device as `nicctl --json status` lists it, with its signals.
nlohmann::json deviceJson(const DeviceView& device);

// "-2.10 dBm" for 0.000616 W; "-inf dBm" for no light at all.
std::string dbmOf(double watts);

} // namespace nicctl
