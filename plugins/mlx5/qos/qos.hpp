// RoCE QoS on one mlx5 port: DSCP trust and PFC through rtnetlink DCB, ToS through configfs.
#pragma once

#include <nicd/plugin/plugin.h>

namespace nicd::mlx5 {

namespace pv1 = ::nicd::plugin::v1;

pv1::Status verifyQos(pv1::IHost& host, const pv1::DeviceRef& dev, const pv1::PortRef& port,
                      const pv1::QosDesired& desired, pv1::QosReport& out) noexcept;

pv1::Status applyQos(pv1::IHost& host, const pv1::DeviceRef& dev, const pv1::PortRef& port,
                     const pv1::QosDesired& desired, pv1::QosReport& out) noexcept;

} // namespace nicd::mlx5
