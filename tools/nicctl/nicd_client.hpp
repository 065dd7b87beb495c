// nicctl's side of the bus: one connection to the bus nicd serves on, and calls through the
// proxies generated from dbus/*.xml. Every failure is an sdbus::Error (the caller prints it).
#pragma once

#include "node_view.hpp"
#include "replies.hpp"

#include <sdbus-c++/IConnection.h>

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace nicctl {

class NicdClient {
public:
    // bus: "system", "session" or a D-Bus address ("unix:path=...").
    explicit NicdClient(const std::string& bus);
    ~NicdClient();

    NodeView status();
    std::vector<EventRow> events(uint64_t since_seq);
    std::vector<QosResultRow> verify();
    std::vector<QosResultRow> apply(bool dry_run);
    uint32_t clearCondition(const std::string& device, const std::string& code);
    // The PCI address forgotten; the names forgotten.
    std::string forgetDevice(const std::string& device);
    std::vector<std::string> acceptInventory();
    // Counters of a device (port 0) or of one of its ports.
    std::map<std::string, uint64_t> counters(const std::string& device, uint32_t port);
    // Manager.GetConfiguration(): (section, key, value, source) rows.
    std::vector<std::array<std::string, 4>> configuration();
    // Manager.LastCycleTimestamp: when the last published cycle ended (µs since the epoch).
    uint64_t lastCycleUsec();
    // Manager.LogLevel, read and set (root).
    std::string logLevel();
    void setLogLevel(const std::string& level);

    // Calls `on_event` for every Event signal until the connection breaks; never returns
    // otherwise. Events with seq <= after_seq are skipped (already printed).
    [[noreturn]] void follow(uint64_t after_seq,
                             const std::function<void(const EventRow&)>& on_event);

private:
    std::unique_ptr<sdbus::IConnection> connection_;
};

} // namespace nicctl
