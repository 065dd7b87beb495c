// The health event log: every raise, recovery, operator clear and baseline, numbered. Sequence
// numbers increase monotonically and are never reused (they survive restarts through toJson /
// fromJson, and a new boot through continueAfter); the log keeps the newest `capacity` events.
#pragma once

#include "model/health.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <vector>

namespace nicd::health {

class EventLog {
public:
    explicit EventLog(size_t capacity = 1024) : capacity_(capacity == 0 ? 1 : capacity) {}

    // Drops the oldest events beyond the new capacity.
    void setCapacity(size_t capacity);
    // Numbers `e` (e.seq is overwritten), keeps it and counts it by kind; returns the stored copy.
    const Event& record(Event e);
    // Events with seq > `seq`, oldest first (those still in the ring).
    std::vector<Event> since(uint64_t seq) const;
    uint64_t lastSeq() const { return last_seq_; }
    // Numbering continues after `seq` (a new boot starts a fresh log, but never reuses numbers).
    void continueAfter(uint64_t seq);
    const std::map<std::string, uint64_t>& totals() const { return totals_; } // by kind name
    const std::deque<Event>& events() const { return events_; }

    // At most kPersistedEvents of the newest events are written: the state file stays small.
    static constexpr size_t kPersistedEvents = 64;
    nlohmann::json toJson() const;
    // Throws nlohmann::json::exception on a malformed document.
    static EventLog fromJson(const nlohmann::json& j, size_t capacity);

private:
    size_t capacity_;
    std::deque<Event> events_;
    std::map<std::string, uint64_t> totals_;
    uint64_t last_seq_ = 0;
};

nlohmann::json eventToJson(const Event& e);
Event eventFromJson(const nlohmann::json& j);

} // namespace nicd::health
