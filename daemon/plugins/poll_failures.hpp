// How one plugin's polls are going, per device: consecutive failed polls, the backoff that
// spaces out retries of a failing device, and the plugin state that follows from it (Degraded
// while any of its devices has failed kDegradedAfter polls in a row).
#pragma once

#include "model/plugin_status.hpp"

#include <nicd/plugin/sdk/backoff.h>

#include <cstdint>
#include <set>
#include <string>

namespace nicd::plugins {

class PollFailures {
public:
    static constexpr uint32_t kDegradedAfter = 3;

    // False while `ibdev` is being backed off (this poll is skipped).
    bool shouldPoll(const std::string& ibdev) { return backoff_.shouldTry(ibdev); }
    // Return true when the device's state changes (first failure / first success after failing).
    bool failed(const std::string& ibdev);
    bool succeeded(const std::string& ibdev);
    void forget(const std::string& ibdev);

    uint32_t failures(const std::string& ibdev) const { return backoff_.failures(ibdev); }
    // The longest run of failed polls over all devices.
    uint32_t worst() const;
    PluginState state() const
    {
        return worst() >= kDegradedAfter ? PluginState::Degraded : PluginState::Running;
    }

private:
    plugin::sdk::Backoff backoff_;
    std::set<std::string> failing_;
};

} // namespace nicd::plugins
