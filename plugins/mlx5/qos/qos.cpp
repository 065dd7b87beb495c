// Placeholder until QoS provisioning lands: every call reports "not supported".
#include "qos/qos.hpp"

namespace nicd::mlx5 {

pv1::Status verifyQos(pv1::IHost&, const pv1::DeviceRef&, const pv1::PortRef&,
                      const pv1::QosDesired&, pv1::QosReport&) noexcept
{
    return pv1::Status::fail(pv1::Errc::NotSupported, "QoS verification is not implemented yet");
}

pv1::Status applyQos(pv1::IHost&, const pv1::DeviceRef&, const pv1::PortRef&,
                     const pv1::QosDesired&, pv1::QosReport&) noexcept
{
    return pv1::Status::fail(pv1::Errc::NotSupported, "QoS provisioning is not implemented yet");
}

} // namespace nicd::mlx5
