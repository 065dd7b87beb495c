// The kernel edge of DCB: the codec's requests sent over the SDK's NetlinkRequester (one
// NETLINK_ROUTE socket, its sequence numbers and replies), each reply message's payload handed
// back to the codec, the outcome worded as a DCB Status. One request at a time.
#pragma once

#include <nicd/plugin/sdk/dcb_access.h>
#include <nicd/plugin/sdk/netlink_requester.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <vector>

namespace nicd::plugin::sdk {

class DcbClient final : public DcbAccess {
public:
    DcbClient();
    ~DcbClient() override = default;
    DcbClient(const DcbClient&) = delete;
    DcbClient& operator=(const DcbClient&) = delete;

    v1::Status get(std::string_view netdev, dcb::DcbState& out) override;
    v1::Status set(std::string_view netdev, const std::optional<dcb::Pfc>& pfc,
                   std::span<const dcb::App> apps) override;
    v1::Status del(std::string_view netdev, std::span<const dcb::App> apps) override;
    v1::Status setEts(std::string_view netdev, const dcb::Ets& ets) override;

    static constexpr int kReplyTimeoutMs = 5000;

private:
    // One IEEE_SET or IEEE_DEL: the request `encode` makes, sent, and its reply's status.
    using Encoder = std::function<std::vector<uint8_t>(uint32_t seq)>;
    v1::Status change(std::string_view netdev, uint8_t cmd, const Encoder& encode);
    // The requester's outcome as a Status: Ok, or what failed, naming the netdev and the command.
    static v1::Status statusOf(const NetlinkOutcome& out, std::string_view netdev, const char* op);

    NetlinkRequester requester_;
};

} // namespace nicd::plugin::sdk
