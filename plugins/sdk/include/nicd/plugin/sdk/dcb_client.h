// The kernel edge of DCB: one NETLINK_ROUTE socket (libnl-3) that sends the codec's requests and
// hands the replies back to it. One request at a time; sequence numbers come from the socket.
#pragma once

#include <nicd/plugin/sdk/dcb_access.h>

#include <cstdint>
#include <functional>
#include <vector>

struct nl_sock;

namespace nicd::plugin::sdk {

class DcbClient final : public DcbAccess {
public:
    DcbClient() = default;
    ~DcbClient() override;
    DcbClient(const DcbClient&) = delete;
    DcbClient& operator=(const DcbClient&) = delete;

    v1::Status get(std::string_view netdev, dcb::DcbState& out) override;
    v1::Status set(std::string_view netdev, const std::optional<dcb::Pfc>& pfc,
                   std::span<const dcb::App> apps) override;
    v1::Status del(std::string_view netdev, std::span<const dcb::App> apps) override;
    v1::Status setEts(std::string_view netdev, const dcb::Ets& ets) override;

    static constexpr int kReplyTimeoutMs = 5000;

private:
    v1::Status open();
    uint32_t nextSeq();
    // Sends `request` and collects every datagram until the reply to `seq` is complete.
    v1::Status exchange(std::string_view netdev, const char* op,
                        const std::vector<uint8_t>& request, uint32_t seq,
                        std::vector<uint8_t>& reply);
    // One IEEE_SET or IEEE_DEL: the request `encode` makes for its sequence number, sent, and
    // its reply's status.
    using Encoder = std::function<std::vector<uint8_t>(uint32_t seq)>;
    v1::Status change(std::string_view netdev, uint8_t cmd, const Encoder& encode);

    nl_sock* sock_ = nullptr;
};

} // namespace nicd::plugin::sdk
