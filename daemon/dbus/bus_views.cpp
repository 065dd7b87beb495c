#include "dbus/bus_views.hpp"

namespace nicd::dbus {

PortQosView qosViewOf(const plugin::v1::QosReport& report, std::string status)
{
    PortQosView v;
    v.status = std::move(status);
    for (const auto& s : report.settings)
        v.settings[s.setting] = {s.desired, s.observed, s.compliant};
    return v;
}

} // namespace nicd::dbus
