#include "dbus/bus_views.hpp"

namespace nicd::dbus {

BusViews busViewsOf(const QosSummary& qos)
{
    BusViews v;
    v.provision_mode = qos.mode;
    v.last_apply_usec =
        qos.last_apply_seconds > 0 ? static_cast<uint64_t>(qos.last_apply_seconds * 1e6) : 0;
    v.last_apply_result = qos.last_apply_result;
    for (const auto& [key, port] : qos.ports) {
        PortQosView& pv = v.qos[key];
        // Derived from the settings when provisioned and read; the reason otherwise.
        if (!port.managed || port.settings.empty() || port.status.rfind("error:", 0) == 0)
            pv.status = port.status;
        for (const auto& s : port.settings)
            pv.settings[s.setting] = {s.desired, s.observed, s.compliant && !s.unsupported()};
    }
    return v;
}

PortQosView qosViewOf(const plugin::v1::QosReport& report, std::string status)
{
    PortQosView v;
    v.status = std::move(status);
    for (const auto& s : report.settings)
        v.settings[s.setting] = {s.desired, s.observed,
                                 s.compliant && s.observed != QosSettingState::kUnsupported};
    return v;
}

} // namespace nicd::dbus
