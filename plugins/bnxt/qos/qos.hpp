// RoCE QoS on a bnxt_en port: read back and compare (verifyQos), write what differs (applyQos).
#pragma once

#include <nicd/plugin/plugin.h>

namespace nicd::bnxt {

namespace pv1 = ::nicd::plugin::v1;

pv1::Status verifyQos(pv1::IHost& host, const pv1::DeviceRef& dev, const pv1::PortRef& port,
                      const pv1::QosDesired& desired, pv1::QosReport& out) noexcept;
pv1::Status applyQos(pv1::IHost& host, const pv1::DeviceRef& dev, const pv1::PortRef& port,
                     const pv1::QosDesired& desired, pv1::QosReport& out) noexcept;

} // namespace nicd::bnxt
