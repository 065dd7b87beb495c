#include "qos/tos_settings.hpp"

#include "qos/roce_tos.hpp"
#include "qos/scalar_setting.hpp"
#include "qos/small_file.hpp"

#include <string>

namespace nicd::mlx5 {

namespace {

TosTarget targetOf(const QosCall& call)
{
    return {call.host.root(), call.host.simulated(), call.dev.ibdev, call.port.port,
            knobHost(call.host)};
}

} // namespace

pv1::QosSettingReport roceTosSetting(QosCall& call)
{
    const TosTarget t = targetOf(call);
    return scalarSetting(
        call, "roce_tos", call.desired.roce_tos,
        [&](std::optional<uint8_t>& out) {
            uint8_t v = 0;
            auto s = readRoceTos(t, v);
            out = v;
            return s;
        },
        [&](uint8_t v) { return writeRoceTos(t, v); });
}

std::optional<pv1::QosSettingReport> trafficClassSetting(QosCall& call)
{
    const TosTarget t = targetOf(call);
    if (!hasTrafficClass(t))
        return std::nullopt;
    return scalarSetting(
        call, "traffic_class", call.desired.roce_tos,
        [&](std::optional<uint8_t>& out) { return readTrafficClass(t, out); },
        [&](uint8_t v) { return writeTrafficClass(t, v); });
}

} // namespace nicd::mlx5
