#include "qos/tos_settings.hpp"

#include "qos/roce_tos.hpp"

#include <functional>
#include <string>

namespace nicd::mlx5 {

namespace {

TosTarget targetOf(const QosCall& call)
{
    return {call.host.root(), call.host.simulated(), call.dev.ibdev, call.port.port};
}

std::string show(std::optional<uint8_t> v)
{
    return v ? std::to_string(*v) : "unset";
}

using Read = std::function<pv1::Status(std::optional<uint8_t>&)>;
using Write = std::function<pv1::Status(uint8_t)>;

// Read; when applying and the value differs, write (unless dry run) and read back.
pv1::QosSettingReport scalarSetting(QosCall& call, const std::string& name, const Read& read,
                                    const Write& write)
{
    const uint8_t want = call.desired.roce_tos;
    pv1::QosSettingReport r;
    r.setting = name;
    r.desired = std::to_string(want);
    std::optional<uint8_t> have;
    if (auto s = read(have); !s) {
        call.fail(s);
        r.error = s.message;
        return r;
    }
    r.observed = show(have);
    r.compliant = have == want;
    if (!call.apply || r.compliant)
        return r;
    call.logChange(call.dev.ibdev + " port " + std::to_string(call.port.port) + " " + name + " " +
                   r.observed + " -> " + r.desired);
    r.changed = true;
    if (!call.writes())
        return r;
    if (auto s = write(want); !s) {
        call.fail(s);
        r.error = s.message;
    }
    if (auto s = read(have); !s) {
        call.fail(s);
        r.error = r.error.empty() ? s.message : r.error;
        r.observed.clear();
        r.compliant = false;
        return r;
    }
    r.observed = show(have);
    r.compliant = have == want;
    return r;
}

} // namespace

pv1::QosSettingReport roceTosSetting(QosCall& call)
{
    const TosTarget t = targetOf(call);
    return scalarSetting(
        call, "roce_tos",
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
        call, "traffic_class",
        [&](std::optional<uint8_t>& out) { return readTrafficClass(t, out); },
        [&](uint8_t v) { return writeTrafficClass(t, v); });
}

} // namespace nicd::mlx5
