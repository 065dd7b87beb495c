// The bnxt plugin: claims RDMA devices of Broadcom NetXtreme-E/Thor functions (bnxt_en, with
// bnxt_re on top); provisions and verifies RoCE QoS (qos/qos.hpp).
#include "qos/qos.hpp"

#include <nicd/plugin/declare.h>

namespace nicd::bnxt {

class BnxtPlugin final : public pv1::IPlugin {
public:
    explicit BnxtPlugin(pv1::IHost& host) : host_(host) {}

    pv1::Status init() noexcept override { return pv1::Status::ok(); }

    bool claims(const pv1::DeviceRef& dev) const noexcept override
    {
        return dev.driver == "bnxt_en";
    }

    pv1::Status attach(const pv1::DeviceRef&) noexcept override { return pv1::Status::ok(); }

    void detach(const pv1::DeviceRef&) noexcept override {}

    pv1::Status poll(const pv1::DeviceRef&, std::vector<pv1::Sample>&) noexcept override
    {
        return pv1::Status::ok();
    }

    pv1::Status verifyQos(const pv1::DeviceRef& dev, const pv1::PortRef& port,
                          const pv1::QosDesired& desired, pv1::QosReport& out) noexcept override
    {
        return bnxt::verifyQos(host_, dev, port, desired, out);
    }

    pv1::Status applyQos(const pv1::DeviceRef& dev, const pv1::PortRef& port,
                         const pv1::QosDesired& desired, pv1::QosReport& out) noexcept override
    {
        return bnxt::applyQos(host_, dev, port, desired, out);
    }

    // ABI < 1.4: never called (this plugin is 1.5; the daemon calls classifyKernelRecord).
    bool classifyKernelLine(std::string_view, pv1::KernelLineMatch&) const noexcept override
    {
        return false;
    }

    void shutdown() noexcept override {}

private:
    pv1::IHost& host_;
};

} // namespace nicd::bnxt

NICD_DECLARE_PLUGIN(nicd::bnxt::BnxtPlugin, "bnxt", "0.1.0")
