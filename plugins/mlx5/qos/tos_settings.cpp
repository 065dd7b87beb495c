#include "qos/tos_settings.hpp"

#include "qos/traffic_class.hpp"

#include <nicd/plugin/sdk/scalar_setting.h>

#include <string>

namespace nicd::mlx5 {

using plugin::sdk::scalarSetting;
using plugin::sdk::tosTarget;

std::optional<pv1::QosSettingReport> trafficClassSetting(QosCall& call)
{
    const TosTarget t = tosTarget(call);
    if (!hasTrafficClass(t))
        return std::nullopt;
    return scalarSetting(
        call, "traffic_class", call.desired.roce_tos,
        [&](std::optional<uint8_t>& out) { return readTrafficClass(t, out); },
        [&](uint8_t v) { return writeTrafficClass(t, v); });
}

} // namespace nicd::mlx5
