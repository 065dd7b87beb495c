// Where a netdev's DCB state lives: the kernel (rtnetlink, DcbClient) or, under a simulated root,
// the simulator's file (SimDcb). A plugin's QoS code talks to this interface only.
#pragma once

#include <nicd/plugin/plugin.h>
#include <nicd/plugin/sdk/dcb_codec.h>

#include <optional>
#include <span>
#include <string_view>

namespace nicd::plugin::sdk {

class DcbAccess {
public:
    virtual ~DcbAccess() = default;
    // IEEE_GET. A netdev whose driver has no DCB fails with Errc::NotSupported.
    virtual v1::Status get(std::string_view netdev, dcb::DcbState& out) = 0;
    // IEEE_SET: PFC (when given) and APP entries to add, in one request.
    virtual v1::Status set(std::string_view netdev, const std::optional<dcb::Pfc>& pfc,
                           std::span<const dcb::App> apps) = 0;
    // IEEE_DEL: APP entries to remove, in one request.
    virtual v1::Status del(std::string_view netdev, std::span<const dcb::App> apps) = 0;
    // IEEE_SET of ETS alone.
    virtual v1::Status setEts(std::string_view netdev, const dcb::Ets& ets) = 0;
};

} // namespace nicd::plugin::sdk
