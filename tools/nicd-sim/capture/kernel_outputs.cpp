// A real node's tool outputs, read through nicd's own kernel readers (no external tool needed)
// and written in the tools' formats by tool_encoders.hpp. Not testable without the hardware: the
// encoders and the blob assembly are (tests/unit/capture_encoders_test.cpp); this file only
// connects them to the readers.
#include "capture/tool_encoders.hpp"
#include "capture/tool_outputs.hpp"
#include "prefailure/devlink_netlink.hpp"
#include "prefailure/ethtool_netlink.hpp"

#include <nicd/plugin/sdk/dcb_client.h>
#include <nicd/plugin/sdk/dcb_sim_format.h>
#include <nicd/plugin/sdk/ethtool_ioctl.h>

#include <net/if.h>

#include <optional>

namespace nicd::sim::capture {

namespace {

namespace pv1 = ::nicd::plugin::v1;
namespace sdk = ::nicd::plugin::sdk;

template <typename T> ToolOutput fromReply(const prefailure::Reply<T>& r, std::string data)
{
    switch (r.status) {
    case prefailure::Reply<T>::Status::Ok:
        return ToolOutput::ok(std::move(data));
    case prefailure::Reply<T>::Status::Unsupported:
        return ToolOutput::absent(r.message);
    default:
        return ToolOutput::failed(r.message);
    }
}

ToolOutput fromStatus(const pv1::Status& s, std::string data)
{
    if (s.code == pv1::Errc::Ok)
        return ToolOutput::ok(std::move(data));
    if (s.code == pv1::Errc::NotSupported)
        return ToolOutput::absent(s.message);
    return ToolOutput::failed(s.message);
}

// A netdev sysfs lists that this process cannot see: nicd-sim runs in another network namespace
// than the node's netdevs (a container without host networking). Said, not taken for "absent".
std::optional<ToolOutput> notHere(const std::string& netdev)
{
    if (::if_nametoindex(netdev.c_str()) != 0)
        return std::nullopt;
    return ToolOutput::failed(netdev +
                              " is not in nicd-sim's network namespace: run the capture "
                              "in the node's (nsenter -t 1 -n, or a pod with hostNetwork)");
}

class KernelOutputs final : public ToolOutputs {
public:
    explicit KernelOutputs(std::chrono::milliseconds timeout) : ethtool_(timeout), devlink_(timeout)
    {
    }

    ToolOutput ethtoolStats(const std::string& netdev) override
    {
        if (auto no = notHere(netdev))
            return *no;
        sdk::Stats stats;
        auto s = sdk::readEthtoolIoctl(netdev, stats);
        return fromStatus(s, s.code == pv1::Errc::Ok ? ethtoolText(stats) : std::string());
    }

    ToolOutput fec(const std::string& netdev) override
    {
        if (auto no = notHere(netdev))
            return *no;
        auto r = ethtool_.readFec(netdev);
        r.value.netdev = netdev;
        return fromReply(r, r.ok() ? fecJson(r.value) : std::string());
    }

    ToolOutput moduleEeprom(const std::string& netdev) override
    {
        if (auto no = notHere(netdev))
            return *no;
        auto r = readModuleBlob([&](const prefailure::EepromRead& e) {
            return ethtool_.readModuleEeprom(netdev, e.i2c_address, e.page, e.bank, e.offset,
                                             e.length);
        });
        return fromReply(r, r.ok() ? std::string(r.value.begin(), r.value.end()) : std::string());
    }

    ToolOutput devlinkHealth() override
    {
        auto r = devlink_.dumpReporters();
        return fromReply(r, r.ok() ? devlinkHealthJson(r.value) : std::string());
    }

    ToolOutput dcb(const std::string& netdev) override
    {
        if (auto no = notHere(netdev))
            return *no;
        plugin::sdk::dcb::DcbState state;
        auto s = dcb_.get(netdev, state);
        if (s.code == pv1::Errc::Ok && !state.pfc)
            return ToolOutput::absent(netdev + ": the driver reports no PFC");
        return fromStatus(s, s.code == pv1::Errc::Ok ? plugin::sdk::formatDcbSimState(state)
                                                     : std::string());
    }

private:
    prefailure::EthtoolNetlink ethtool_;
    prefailure::DevlinkNetlink devlink_;
    plugin::sdk::DcbClient dcb_;
};

} // namespace

std::unique_ptr<ToolOutputs> kernelToolOutputs(std::chrono::milliseconds timeout)
{
    return std::make_unique<KernelOutputs>(timeout);
}

} // namespace nicd::sim::capture
