// RoCE QoS on a bnxt_en port: read back and compare (verifyQos), write what differs (applyQos).
#pragma once

#include "dcbx_owner.hpp"

#include <nicd/plugin/plugin.h>

namespace nicd::bnxt {

namespace pv1 = ::nicd::plugin::v1;

// `notices`: which netdevs' DCB owner was logged; the plugin's own, kept from call to call (the
// daemon never calls one plugin from two threads at once).
pv1::Status verifyQos(pv1::IHost& host, OwnerNotices& notices, const pv1::DeviceRef& dev,
                      const pv1::PortRef& port, const pv1::QosDesired& desired,
                      pv1::QosReport& out) noexcept;
pv1::Status applyQos(pv1::IHost& host, OwnerNotices& notices, const pv1::DeviceRef& dev,
                     const pv1::PortRef& port, const pv1::QosDesired& desired,
                     pv1::QosReport& out) noexcept;

} // namespace nicd::bnxt
