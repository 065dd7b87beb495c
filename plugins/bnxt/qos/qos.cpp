// Placeholder until bnxt QoS lands: every call says so (issue 31).
#include "qos/qos.hpp"

namespace nicd::bnxt {

pv1::Status verifyQos(pv1::IHost&, const pv1::DeviceRef& dev, const pv1::PortRef&,
                      const pv1::QosDesired&, pv1::QosReport&) noexcept
{
    return pv1::Status::fail(pv1::Errc::NotSupported, dev.ibdev + ": bnxt QoS not written yet");
}

pv1::Status applyQos(pv1::IHost& host, const pv1::DeviceRef& dev, const pv1::PortRef& port,
                     const pv1::QosDesired& desired, pv1::QosReport& out) noexcept
{
    return verifyQos(host, dev, port, desired, out);
}

} // namespace nicd::bnxt
