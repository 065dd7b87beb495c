// nicd's D-Bus values on the wire: the sdbus-c++ types of the struct and array properties, the
// Event signal and the method answers (the signatures in dbus/io.nicd.Nicd1.*.xml), and the
// conversions from the plain rows of object_values.hpp (nicd, serving) and back (nicctl, reading).
// Pure: no bus.
#pragma once

#include <nicd/client/object_values.hpp>

#include <sdbus-c++/Types.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace nicd::dbus {

// Device and Port Conditions: a(ssusssts) (code, severity, port, source, message, advice,
// since_usec, action).
using ConditionWire = sdbus::Struct<std::string, std::string, uint32_t, std::string, std::string,
                                    std::string, uint64_t, std::string>;
// Manager.Conditions: a(sssusssts), the device first ("" for the node).
using NodeConditionWire =
    sdbus::Struct<std::string, std::string, std::string, uint32_t, std::string, std::string,
                  std::string, uint64_t, std::string>;
using ReadyCheckWire = sdbus::Struct<std::string, std::string, std::string>;
// Port Planes: a(usss) (plane, SMI device, state, rate).
using PlaneWire = sdbus::Struct<uint32_t, std::string, std::string, std::string>;
// Port Neighbors: a(sssssu) (switch, switch port, chassis ID, port ID, management address, TTL).
using NeighborWire =
    sdbus::Struct<std::string, std::string, std::string, std::string, std::string, uint32_t>;
using PcieLinkWire = sdbus::Struct<double, uint32_t, double, uint32_t>;
using ReporterWire = sdbus::Struct<std::string, std::string, std::string, uint64_t, uint64_t>;
using UplinkWire =
    sdbus::Struct<std::string, std::string, std::string, std::map<std::string, double>>;
using EventWire = sdbus::Struct<uint64_t, uint64_t, std::string, std::string, std::string, uint32_t,
                                std::string, std::string, std::string>;
using QosResultWire = sdbus::Struct<std::string, uint32_t, std::string, std::string, std::string,
                                    bool, bool, std::string>;
using QosRowsWire = std::vector<QosResultWire>;

// Rows to the wire. A ConditionRow goes as a ConditionWire (its device left out) or, through
// nodeConditionWireOf, as a NodeConditionWire.
ConditionWire wireOf(const ConditionRow& row);
NodeConditionWire nodeConditionWireOf(const ConditionRow& row);
ReadyCheckWire wireOf(const ReadyCheckRow& row);
PlaneWire wireOf(const PlaneRow& row);
NeighborWire wireOf(const NeighborRow& row);
PcieLinkWire wireOf(const PcieLinkRow& row);
ReporterWire wireOf(const ReporterRow& row);
UplinkWire wireOf(const UplinkRow& row);
EventWire wireOf(const EventRow& row);
QosResultWire wireOf(const QosResultRow& row);

// The wire back to rows (a ConditionWire's device is left empty).
ConditionRow rowOf(const ConditionWire& wire);
ConditionRow rowOf(const NodeConditionWire& wire);
ReadyCheckRow rowOf(const ReadyCheckWire& wire);
PlaneRow rowOf(const PlaneWire& wire);
NeighborRow rowOf(const NeighborWire& wire);
PcieLinkRow rowOf(const PcieLinkWire& wire);
ReporterRow rowOf(const ReporterWire& wire);
UplinkRow rowOf(const UplinkWire& wire);
EventRow rowOf(const EventWire& wire);
QosResultRow rowOf(const QosResultWire& wire);

namespace detail {
template <typename T, typename Fn> auto eachOf(const std::vector<T>& in, Fn fn)
{
    std::vector<decltype(fn(in.front()))> out;
    out.reserve(in.size());
    for (const auto& x : in)
        out.push_back(fn(x));
    return out;
}
} // namespace detail

// The same for every row of an array.
template <typename Row> auto wireOf(const std::vector<Row>& rows)
{
    return detail::eachOf(rows, [](const Row& r) { return wireOf(r); });
}
template <typename Wire> auto rowsOf(const std::vector<Wire>& wire)
{
    return detail::eachOf(wire, [](const Wire& w) { return rowOf(w); });
}

} // namespace nicd::dbus
