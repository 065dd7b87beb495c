#include <nicd/client/wire_values.hpp>

namespace nicd::dbus {

ConditionWire wireOf(const ConditionRow& c)
{
    return {c.code, c.severity, c.port, c.source, c.message, c.advice, c.since_usec, c.action};
}

NodeConditionWire nodeConditionWireOf(const ConditionRow& c)
{
    return {c.device,  c.code,   c.severity,   c.port,  c.source,
            c.message, c.advice, c.since_usec, c.action};
}

ReadyCheckWire wireOf(const ReadyCheckRow& c)
{
    return {c.check, c.verdict, c.saw};
}

PlaneWire wireOf(const PlaneRow& p)
{
    return {p.plane, p.smi_device, p.state, p.rate};
}

NeighborWire wireOf(const NeighborRow& n)
{
    return {n.switch_name, n.switch_port, n.chassis_id, n.port_id, n.mgmt_address, n.ttl};
}

PcieLinkWire wireOf(const PcieLinkRow& l)
{
    return {l.current_gts, l.current_width, l.capable_gts, l.capable_width};
}

ReporterWire wireOf(const ReporterRow& r)
{
    return {r.handle, r.name, r.state, r.errors, r.recovers};
}

UplinkWire wireOf(const UplinkRow& u)
{
    return {u.netdev, u.fec_mode, u.module, u.values};
}

EventWire wireOf(const EventRow& e)
{
    return {e.seq, e.time_usec, e.kind, e.severity, e.device, e.port, e.code, e.message, e.action};
}

QosResultWire wireOf(const QosResultRow& r)
{
    return {r.device, r.port, r.setting, r.desired, r.observed, r.compliant, r.changed, r.error};
}

ConditionRow rowOf(const ConditionWire& w)
{
    return {{},
            std::get<0>(w),
            std::get<1>(w),
            std::get<2>(w),
            std::get<3>(w),
            std::get<4>(w),
            std::get<5>(w),
            std::get<6>(w),
            std::get<7>(w)};
}

ConditionRow rowOf(const NodeConditionWire& w)
{
    return {std::get<0>(w), std::get<1>(w), std::get<2>(w), std::get<3>(w), std::get<4>(w),
            std::get<5>(w), std::get<6>(w), std::get<7>(w), std::get<8>(w)};
}

ReadyCheckRow rowOf(const ReadyCheckWire& w)
{
    return {std::get<0>(w), std::get<1>(w), std::get<2>(w)};
}

PlaneRow rowOf(const PlaneWire& w)
{
    return {std::get<0>(w), std::get<1>(w), std::get<2>(w), std::get<3>(w)};
}

NeighborRow rowOf(const NeighborWire& w)
{
    return {std::get<0>(w), std::get<1>(w), std::get<2>(w),
            std::get<3>(w), std::get<4>(w), std::get<5>(w)};
}

PcieLinkRow rowOf(const PcieLinkWire& w)
{
    return {std::get<0>(w), std::get<1>(w), std::get<2>(w), std::get<3>(w)};
}

ReporterRow rowOf(const ReporterWire& w)
{
    return {std::get<0>(w), std::get<1>(w), std::get<2>(w), std::get<3>(w), std::get<4>(w)};
}

UplinkRow rowOf(const UplinkWire& w)
{
    return {std::get<0>(w), std::get<1>(w), std::get<2>(w), std::get<3>(w)};
}

EventRow rowOf(const EventWire& w)
{
    return {std::get<0>(w), std::get<1>(w), std::get<2>(w), std::get<3>(w), std::get<4>(w),
            std::get<5>(w), std::get<6>(w), std::get<7>(w), std::get<8>(w)};
}

QosResultRow rowOf(const QosResultWire& w)
{
    return {std::get<0>(w), std::get<1>(w), std::get<2>(w), std::get<3>(w),
            std::get<4>(w), std::get<5>(w), std::get<6>(w), std::get<7>(w)};
}

} // namespace nicd::dbus
